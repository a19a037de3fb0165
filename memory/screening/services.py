"""Tokens of hosted services, each found by its fixed prefix and alphabet, and Knownbase's own keys.

Every family here reads a token's documented shape: a prefix no word starts with, then a run of the
token's alphabet of a fixed or minimum length, and not glued to more of that alphabet (RE2 has no
look-ahead: `not_followed_by` checks the next character). The random part must not be a stand-in
(`hf_xxx…`, `SG.your-key…`, masked or marked: benign.placeholder_token). Placeholders without the
shape (`<token>`, `${SENDGRID_API_KEY}`) never match at all.

Order: these families run after the families of patterns.py, so a token under a secret's name
(`SENDGRID_API_KEY=SG.…`) is still reported as the assignment it was refused as before they existed;
they refuse what nothing refused before (a token in a log line, a chat message, a URL, a command).
"""

from __future__ import annotations

from accounts import key_format
from memory.screening import benign
from memory.screening.engine import linear
from memory.screening.family import ALNUM, START, UPPER_ALNUM, Family, Match, not_followed_by, secret, token

_URLSAFE = ALNUM + "-_"


def _knownbase_key(match: Match) -> bool:
    # A minted key's body is uniformly random (secrets.token_urlsafe), so only a masked body
    # ("kb_0123456789ab" and x's or stars) is a stand-in: marker words could occur in a real key.
    body = secret(match)[len(key_format.PREFIX) + key_format.LOOKUP_LENGTH :]
    return not benign.masked(body)


def _telegram(match: Match) -> bool:
    return not benign.placeholder_token(secret(match).split(":", 1)[1])


FAMILIES: tuple[Family, ...] = (
    # Knownbase's own API keys, in the shape accounts/key_format.py mints: the prefix, the hex lookup
    # and the url-safe secret. The key's public id (kb_ and the lookup alone) is not a secret.
    Family(
        "knownbase_api_key",
        "a Knownbase API key",
        linear(START + rf"(?P<secret>{key_format.SHAPE})"),
        not_followed_by(key_format.BODY_CHARS, _knownbase_key),
    ),
    # Hugging Face user access tokens (hf_ and 34 letters; digits and longer tokens accepted).
    Family(
        "huggingface_token",
        "a Hugging Face access token",
        linear(START + r"(?P<secret>hf_[A-Za-z0-9]{34,})"),
        not_followed_by(ALNUM, token(3)),
    ),
    # SendGrid API keys: SG., a 22-character key id, a dot, a 43-character secret.
    Family(
        "sendgrid_key",
        "a SendGrid API key",
        linear(START + r"(?P<secret>SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43})"),
        not_followed_by(_URLSAFE, token(26)),
    ),
    # Twilio API key SIDs (SK and 32 hex), shown with their secret. Limit: the API key's secret and
    # the account's auth token are 32 characters without a prefix; only an assignment finds them.
    Family(
        "twilio_api_key",
        "a Twilio API key",
        linear(START + r"(?P<secret>SK[0-9a-fA-F]{32})"),
        not_followed_by(ALNUM, token(2)),
    ),
    # HashiCorp Vault service, batch and recovery tokens (hvs., hvb., hvr.). Limit: tokens of Vault
    # before 1.10 (s.…) are too short a prefix to tell from text.
    Family(
        "vault_token",
        "a HashiCorp Vault token",
        linear(START + r"(?P<secret>hv[sbr]\.[A-Za-z0-9_\-]{24,})"),
        token(4),
    ),
    # DigitalOcean personal access, OAuth and refresh tokens.
    Family(
        "digitalocean_token",
        "a DigitalOcean token",
        linear(START + r"(?P<secret>do[opr]_v1_[a-f0-9]{64})"),
        not_followed_by(ALNUM, token(7)),
    ),
    # Shopify admin API access tokens, custom-app, partner and shared secrets.
    Family(
        "shopify_token",
        "a Shopify access token",
        linear(START + r"(?P<secret>shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32})"),
        not_followed_by(ALNUM, token(6)),
    ),
    # age secret keys: the Bech32 encoding of the key, upper-case. Public recipients (age1…) pass.
    Family(
        "age_secret_key",
        "an age secret key",
        linear(r"(?P<secret>AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58})"),
        not_followed_by(UPPER_ALNUM, token(16)),
    ),
    # Telegram bot tokens: the bot's numeric id, a colon and 35 url-safe characters starting with
    # "A", also inside the API's URLs (…/bot<token>/sendMessage). The Bot API docs' example
    # (123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11) is one character short of the shape and passes.
    Family(
        "telegram_bot_token",
        "a Telegram bot token",
        linear(r"(?:^|[^A-Za-z0-9]|bot)(?P<secret>\d{5,16}:A[A-Za-z0-9_\-]{34})"),
        not_followed_by(_URLSAFE, _telegram),
    ),
    # Discord webhook URLs: anyone holding one can post to the channel.
    Family(
        "discord_webhook",
        "a Discord webhook URL",
        linear(
            r"(?P<secret>https?://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api(?:/v\d{1,2})?/webhooks/"
            r"\d{17,20}/[A-Za-z0-9_\-]{60,})"
        ),
        lambda match: not benign.placeholder_token(secret(match).rsplit("/", 1)[1]),
    ),
    # Google OAuth 2.0 access tokens (ya29., service-account tokens ya29.c.…).
    Family(
        "google_oauth_token",
        "a Google OAuth access token",
        linear(START + r"(?P<secret>ya29\.(?:[A-Za-z0-9_\-]{1,8}\.){0,2}[A-Za-z0-9_\-]{30,})"),
        lambda match: not benign.placeholder_token(secret(match).rsplit(".", 1)[1]),
    ),
    # Mailgun private API keys (key- and 32 hex). "key-value store" and "key-rotation" are words, not
    # hex. Limit: Mailgun's newer keys have no prefix.
    Family(
        "mailgun_key",
        "a Mailgun API key",
        linear(START + r"(?P<secret>key-[0-9a-f]{32})"),
        not_followed_by(ALNUM, token(4)),
    ),
    # Linear personal API keys.
    Family(
        "linear_api_key",
        "a Linear API key",
        linear(START + r"(?P<secret>lin_api_[A-Za-z0-9]{40})"),
        not_followed_by(ALNUM, token(8)),
    ),
    # Postman API keys: PMAK-, a 24-hex id, a dash, a 34-hex secret.
    Family(
        "postman_api_key",
        "a Postman API key",
        linear(START + r"(?P<secret>PMAK-[a-f0-9]{24}-[a-f0-9]{34})"),
        not_followed_by(ALNUM, token(5)),
    ),
)
