"""Secret and personal-data pattern families. Each has a name, a compiled pattern, an optional
validator that removes false positives, and a comment on what it cannot see.

Regexes find shapes, not secrets: every family below misses secrets that do not have its shape, and
some find harmless look-alikes. The validators and thresholds are tuned against the true/false
positive cases in tests/memory/screening/test_patterns.py.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Family:
    name: str
    label: str
    pattern: re.Pattern[str]
    validate: Callable[[re.Match[str]], bool] | None = None

    def finds(self, text: str) -> re.Match[str] | None:
        for match in self.pattern.finditer(text):
            if self.validate is None or self.validate(match):
                return match
        return None


def shannon_entropy(value: str) -> float:
    if not value:
        return 0.0
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def _luhn(digits: str) -> bool:
    total = 0
    for index, char in enumerate(reversed(digits)):
        digit = int(char)
        if index % 2 == 1:
            digit *= 2
            if digit > 9:
                digit -= 9
        total += digit
    return total % 10 == 0


def _card(match: re.Match[str]) -> bool:
    digits = re.sub(r"\D", "", match.group(0))
    # Visa, Mastercard, Amex, Discover, JCB, Diners and UnionPay start with 3-6; test cards count too.
    return 13 <= len(digits) <= 19 and digits[0] in "3456" and _luhn(digits)


_PLACEHOLDERS = re.compile(
    r"^(\*+|x+|\.+|<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\}|%\(?\w*\)?s?|changeme|password|passwd|secret|example|"
    r"redacted|your[-_]?\w*|dummy|test|none|null)$",
    re.IGNORECASE,
)


def _real_password(value: str) -> bool:
    return not _PLACEHOLDERS.match(value) and not value.startswith(("$", "%", "{"))


def _url_password(match: re.Match[str]) -> bool:
    return _real_password(match.group("password"))


def _assigned_secret(match: re.Match[str]) -> bool:
    # High entropy and more than one character class: "password=hunter2hunter2" is caught by neither
    # family on purpose (low entropy words are too often prose), "password=Tr0ub4dor&3xQ" is.
    value = match.group("value")
    classes = sum(bool(re.search(p, value)) for p in (r"[a-z]", r"[A-Z]", r"\d", r"[^A-Za-z0-9]"))
    return _real_password(value) and classes >= 2 and shannon_entropy(value) >= 3.0


FAMILIES: tuple[Family, ...] = (
    # PEM / OpenSSH / PGP private key blocks. Limit: a key pasted without its BEGIN line is not seen.
    Family(
        "private_key",
        "a private key",
        re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"),
    ),
    # AWS access key ids (long-lived AKIA, temporary ASIA...). Limit: the 40-character secret access key
    # has no prefix; it is caught only when assigned to a recognisable name (secret_assignment).
    Family(
        "aws_access_key", "an AWS access key id", re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA|AIDA)[A-Z0-9]{16}\b")
    ),
    # GCP service-account key files (their private_key_id) and Google API keys.
    Family(
        "gcp_credentials",
        "a Google Cloud credential",
        re.compile(r'"private_key_id"\s*:\s*"[0-9a-f]{40}"|\bAIza[0-9A-Za-z_\-]{35}\b'),
    ),
    # GitHub tokens: classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained (github_pat_).
    Family(
        "github_token",
        "a GitHub token",
        re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,255}\b|\bgithub_pat_[A-Za-z0-9_]{60,255}\b"),
    ),
    Family("gitlab_token", "a GitLab token", re.compile(r"\bgl(?:pat|dt|rt|cbt|ptt|ft)-[A-Za-z0-9_\-]{20,}")),
    # Slack bot/user/app tokens and incoming-webhook URLs.
    Family(
        "slack_token",
        "a Slack token",
        re.compile(
            r"\bxox[abprse]-[A-Za-z0-9-]{10,}|https://hooks\.slack\.com/services/T[A-Z0-9]+/B[A-Z0-9]+/\w+"
        ),
    ),
    # Stripe secret and restricted keys, and webhook signing secrets. Publishable keys (pk_) are public.
    Family(
        "stripe_key",
        "a Stripe secret key",
        re.compile(r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|\bwhsec_[A-Za-z0-9+/=]{24,}"),
    ),
    # OpenAI (sk-..., sk-proj-...) and Anthropic (sk-ant-...) API keys. Limit: providers without a prefix.
    Family(
        "ai_provider_key",
        "an OpenAI or Anthropic API key",
        re.compile(r"\bsk-(?:ant-(?:api\d\d-)?|proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{32,}"),
    ),
    Family("npm_token", "an npm token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")),
    Family("pypi_token", "a PyPI token", re.compile(r"\bpypi-AgE[A-Za-z0-9_\-]{50,}")),
    # JSON Web Tokens: three base64url parts, the first two JSON objects ("eyJ"). Limit: JWE and
    # unsigned tokens of other shapes.
    Family(
        "jwt",
        "a JSON Web Token",
        re.compile(r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
    ),
    # user:password@ in any URL or connection string; placeholders (****, ${DB_PASSWORD}, <password>)
    # are allowed. Limit: passwords given as separate fields (host=... password=...) fall to the next family.
    Family(
        "connection_string_password",
        "a password inside a connection string or URL",
        re.compile(r"\b[a-z][a-z0-9+.\-]*://[^\s:/@]+:(?P<password>[^\s@/]{3,})@[^\s/]+", re.IGNORECASE),
        _url_password,
    ),
    # password= / secret: / api_key = "..." with a high-entropy value. Limit: low-entropy or dictionary
    # passwords, and secrets under names it does not know.
    Family(
        "secret_assignment",
        "a password or secret assigned to a variable",
        re.compile(
            r"(?:pass(?:word|wd)?|pwd|secret|api[_\- ]?key|access[_\- ]?key|auth[_\- ]?token|token|"
            r"client[_\- ]?secret|private[_\- ]?key)[\"']?\s*[:=]\s*[\"']?(?P<value>[^\s\"',;]{8,})",
            re.IGNORECASE,
        ),
        _assigned_secret,
    ),
    # Payment card numbers: 13-19 digits, optionally grouped by spaces or dashes, Luhn-valid, with a
    # card-network first digit, not part of a decimal number (0.4242…). Limit: a Luhn-valid order or
    # tracking number in that range is refused too.
    Family(
        "payment_card",
        "a payment card number",
        re.compile(r"(?<![\d\-.,])(?:\d[ \-]?){12,18}\d(?![\d\-]|[.,]\d)"),
        _card,
    ),
    # US Social Security numbers in the dashed form, excluding numbers never issued (000, 666, 9xx,
    # 00 group, 0000 serial). Limit: undashed SSNs are not screened (too many false positives).
    Family(
        "us_ssn",
        "a US Social Security number",
        re.compile(r"(?<![\d\-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d\-])"),
    ),
)

FAMILY_NAMES = tuple(f.name for f in FAMILIES)
