"""Vendor tokens and Knownbase's own keys (memory/screening/services.py, issue 20 point 4): each shape
refused through the gate, its documented twins and placeholders let through."""

from __future__ import annotations

import pytest

from accounts import key_format
from memory.screening.gate import screen
from tests.memory.screening.samples import TRUE_POSITIVES

FAMILIES = (
    "knownbase_api_key",
    "huggingface_token",
    "sendgrid_key",
    "twilio_api_key",
    "vault_token",
    "digitalocean_token",
    "shopify_token",
    "age_secret_key",
    "telegram_bot_token",
    "discord_webhook",
    "google_oauth_token",
    "mailgun_key",
    "linear_api_key",
    "postman_api_key",
)
POSITIVES = [(family, value) for family in FAMILIES for value in TRUE_POSITIVES[family]]
# Where a token is pasted besides an assignment: a log line, a chat message, a JSON body, a URL.
CONTEXTS = ("{}", "2026-12-04 10:00:01 DEBUG using {} for upload", "[10:42] li: try {} now", '{{"t": "{}"}}')

TWINS = {
    "knownbase_api_key": [
        "Revoke kb_3f9a1c2d4e5b6a7c on the keys page",
        "The secret key itself: kb_3f9a1c2d4e5b6a7cXyZ…",
        "kb_0123456789ab" + "x" * 43,
        "KNOWNBASE_API_KEY=kb_... python manage.py mcp_stdio",
    ],
    "huggingface_token": ["export HF_TOKEN=hf_xxx", "hf_hub_download(repo_id=repo)", "hf_YOUR_TOKEN_HERE"],
    "sendgrid_key": [
        "SENDGRID_API_KEY=${SENDGRID_API_KEY}",
        "keys look like SG.xxxxx.yyyyy",
        "SG.1 and SG.2",
    ],
    "twilio_api_key": ["SKU list", "SK is the prefix of an API key sid", "SK" + "x" * 32],
    "vault_token": ["tokens start with hvs. and expire", "VAULT_TOKEN=hvs.XXXXXXXXXXXXXXXXXXXXXXXXXXXX"],
    "digitalocean_token": ["DIGITALOCEAN_TOKEN=dop_v1_<your token>", "dop_v1_" + "0" * 64],
    "shopify_token": ["shpat_" + "x" * 32, "the shpat_ prefix marks admin tokens"],
    "age_secret_key": [
        "AGE-SECRET-KEY-1...",
        "age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p",
    ],
    "telegram_bot_token": ["123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11", "at 12:30:45 the build ran"],
    "discord_webhook": [
        "https://discord.com/api/webhooks/{webhook.id}/{webhook.token}",
        "https://discord.com/api/webhooks/123456789012345678/<token>",
    ],
    "google_oauth_token": [
        "tokens start with ya29. and last an hour",
        "ya29.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    ],
    "mailgun_key": ["a key-value store", "key-rotation-policy: yearly", "key-" + "x" * 32],
    "linear_api_key": ["LINEAR_API_KEY=lin_api_your_key_here", "lin_api_key = settings.LINEAR"],
    "postman_api_key": ["PMAK-<your-postman-key>", "PMAK-" + "x" * 24 + "-" + "x" * 34],
}


def test_every_family_has_positives_and_twins():
    assert set(TWINS) == set(FAMILIES)
    assert all(TRUE_POSITIVES[family] for family in FAMILIES)


@pytest.mark.parametrize(("family", "value"), POSITIVES)
@pytest.mark.parametrize("context", CONTEXTS)
def test_the_token_is_refused_by_its_family(family, value, context):
    finding = screen({"content": context.format(value)})
    assert finding is not None and finding.family == family


@pytest.mark.parametrize(("family", "text"), [(f, t) for f, twins in TWINS.items() for t in twins])
def test_the_twin_passes(family, text):
    assert screen({"content": text}) is None, family


# Families whose tokens have one length (the others accept longer tokens).
OPEN_ENDED = {"vault_token", "discord_webhook", "google_oauth_token", "huggingface_token"}
FIXED_LENGTH = [(f, v) for f, v in POSITIVES if f not in OPEN_ENDED and " " not in v and "/" not in v]


@pytest.mark.parametrize(("family", "value"), FIXED_LENGTH)
def test_a_token_glued_to_more_of_its_alphabet_is_not_its_shape(family, value):
    # One more character of the token's alphabet makes it something else (a longer id, a hash).
    finding = screen({"content": f"{value}7"})
    assert finding is None or finding.family != family


def test_every_key_this_server_mints_is_refused():
    # The gate reads the declaration accounts/key_format.py mints from: 200 fresh keys, all refused.
    for _ in range(200):
        _, raw = key_format.mint()
        finding = screen({"content": f"my key is {raw}."})
        assert finding is not None and finding.family == "knownbase_api_key", raw
        assert (
            screen({"content": f"revoke {raw[: len(key_format.PREFIX) + key_format.LOOKUP_LENGTH]}"}) is None
        )
