"""The gate on the labelled corpus (issue 9, point 2): precision and recall per family, and no
refusal of a reference or a placeholder. Floors sit just under the measured figures (docs/safety.md);
tests/memory/screening/scoring.py prints the tables."""

from __future__ import annotations

import hashlib

import pytest

from labelled.screening.scoring import CORPUS, SPLITS, load, score

# Each split is frozen by the SHA-256 of its file, pinned when it was committed: a split edited to
# fit the patterns measures nothing. A real mistake in one is fixed in its own commit that says so,
# with the new digest, never in the same change as a pattern. fresh2 (issue 20) was pinned before
# any pattern changed after its first scoring.
FROZEN = {
    "dev": "d78bcb65805ddff4f55909fb453283a612f83d24578ca62bc4a3a3d16ef43087",
    "heldout": "f289b228b176b9aed8f6fc90831ec7adc2f6f085d6bb76a3c5c09a6e37f4c887",
    "fresh": "04694b460928736528923956a55b70c4b478925e8f45281bca6ff9fe0210e6c0",
    "fresh2": "46bcd0f5ef1a8098bd8cc2e7d67b1d0610334d19c271bd77069dc501bce63849",
}

# Families with a fixed shape: recall must stay at 100 % (issue 9).
FIRST_FIXED_SHAPE = (
    "private_key",
    "aws_access_key",
    "gcp_credentials",
    "github_token",
    "gitlab_token",
    "slack_token",
    "stripe_key",
    "ai_provider_key",
    "npm_token",
    "pypi_token",
    "jwt",
    "payment_card",
    "us_ssn",
)
# Issue 20: the vendor tokens and Knownbase's own keys (services.py), fixed shapes too.
SERVICES = (
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
FIXED_SHAPE = (*FIRST_FIXED_SHAPE, *SERVICES)
# Issue 20 (commands.py): a tool's syntax, free-form passwords; one miss in 2 snippets lands below.
COMMAND_LINE = (
    "basic_auth_header",
    "curl_password",
    "netrc_password",
    "mysql_password",
    "docker_login_password",
    "sshpass_password",
)
# Measured 1.000 everywhere; one miss or one false finding in a family of this corpus size lands
# below these.
PRECISION_FLOOR = 0.95
RECALL_FLOOR = {
    "connection_string_password": 0.95,
    "secret_assignment": 0.95,
    **dict.fromkeys(COMMAND_LINE, 0.95),
}
# Measured: no snippet without a secret refused (spec: under 0.5 %, which is none at this size).
MAX_FALSE_REFUSALS = 0


@pytest.fixture(scope="module", params=SPLITS)
def scored(request):
    return request.param, score(load(request.param))


def test_every_split_is_frozen():
    assert set(FROZEN) == set(SPLITS)
    for split, digest in FROZEN.items():
        assert hashlib.sha256((CORPUS / f"{split}.jsonl").read_bytes()).hexdigest() == digest, (
            f"{split}.jsonl changed after it was frozen; see FROZEN above"
        )


def test_the_issue_20_split_has_positives_and_negatives_of_every_new_family():
    snippets = load("fresh2")
    labelled = [s.label for s in snippets]
    for family in (*SERVICES, *COMMAND_LINE):
        assert labelled.count(family) >= 2, family
    assert labelled.count(None) >= 2 * len((*SERVICES, *COMMAND_LINE))
    assert len({s.id for s in snippets}) == len(snippets) and all(s.id.startswith("g") for s in snippets)


def test_the_corpus_is_large_and_balanced():
    snippets = [s for split in SPLITS for s in load(split)]
    positives = [s for s in snippets if s.label]
    assert len(snippets) >= 300
    assert 0.4 <= len(positives) / len(snippets) <= 0.6
    assert {s.label for s in positives} >= set(FIXED_SHAPE) | set(RECALL_FLOOR)
    assert len({s.kind for s in snippets}) >= 10


def test_no_reference_or_placeholder_is_refused(scored):
    split, result = scored
    assert len(result.refused_negatives) <= MAX_FALSE_REFUSALS, f"{split}: {result.refused_negatives}"


@pytest.mark.parametrize("family", FIXED_SHAPE)
def test_fixed_shape_families_find_every_secret(scored, family):
    split, result = scored
    assert result.recall(family) == 1.0, f"{split}: {result.missed}"


@pytest.mark.parametrize("family", sorted(RECALL_FLOOR))
def test_free_form_families_recall(scored, family):
    split, result = scored
    assert result.recall(family) >= RECALL_FLOOR[family], f"{split}: {result.missed}"


def test_every_family_is_precise(scored):
    split, result = scored
    low = {
        f: round(result.precision(f), 3) for f in result.predicted if result.precision(f) < PRECISION_FLOOR
    }
    assert low == {}, split
