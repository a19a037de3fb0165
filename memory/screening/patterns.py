"""Secret and personal-data pattern families. Each has a name, a compiled pattern, an optional
validator that removes false positives, and a comment on what it cannot see.

Regexes find shapes, not secrets: every family below misses secrets that do not have its shape, and
some find harmless look-alikes. The validators (here, in benign.py and cards.py) tell references,
placeholders and look-alikes from secrets; the labelled corpus in tests/memory/screening/corpus/
measures them (README, Safety section).

Linear time: every family is compiled by RE2 (engine.py), which never backtracks, so one search
costs time linear in the text it reads. A search starts where the previous match ended and reads
past a match's end only while a longer match of the same start is still possible: the patterns end
in a greedy run of the token's own alphabet, a fixed-length part or a lazy "…@", so that read-ahead
is nil or bounded. Validators read a bounded window around each candidate (Window) and judge at most
MAX_VALUE characters of it. tests/memory/screening/test_linear.py meters the work on adversarial
text. Python's `re` backtracks: the old `\\b[a-z][a-z0-9+.\\-]*://` took 7 s on `"a." * 25000`.
"""

from __future__ import annotations

import re

from memory.screening import benign, cards, commands, services
from memory.screening.engine import linear
from memory.screening.family import (
    ALNUM,
    MAX_VALUE,
    START,
    UPPER_ALNUM,
    WINDOW,
    Family,
    Match,
    not_followed_by,
    secret,
    token,
    token_after,
)


def _gcp(match: Match) -> bool:
    key_id = match.groupdict().get("secret")
    return not benign.placeholder_token(str(key_id) if key_id else str(match.group("api"))[4:])


def _slack(match: Match) -> bool:
    # The random part: after the token's type (xoxb-…) or the webhook's last "/".
    value = secret(match)
    return not benign.placeholder_token(value.rsplit("/", 1)[-1] if "/" in value else value[5:])


def _ai_key(match: Match) -> bool:
    # "sk-" starts ordinary words and slugs too ("sk-learn-pipeline-…"): the key part must look random.
    body = secret(match)[3:]
    return benign.random_looking(body) and not benign.placeholder_token(body)


# --- private keys -----------------------------------------------------------------------------------

_KEY_MATERIAL = re.compile(r"[A-Za-z0-9+/=]{20}")
_KEY_END = re.compile(r"-{3,5} ?END ")


def _private_key(match: Match) -> bool:
    if match.groupdict().get("ppk"):
        return True
    # The block's body decides. Key material (a base64 run) is a secret; so is anything the gate
    # cannot tell from a truncated paste. Only an empty block or a stand-in ("...", "<your key>",
    # "followed by your key") documents the format.
    body = match.string[match.end() : match.end() + WINDOW]
    end = _KEY_END.search(body)
    body = body[: end.start()] if end else body
    if _KEY_MATERIAL.search(body.replace("\\n", "\n")):
        return True
    if end is not None and not body.strip(" \t\r\n\"'`\\n"):
        return False
    return not benign.marked(body[:120])


# --- connection strings -------------------------------------------------------------------------------

_HOST = re.compile(
    r"(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_](?:[A-Za-z0-9_.\-]*)|\$\{[^}]{1,80}\}|\{[^}]{1,80}\})(?::\d{1,5})?"
)
_HOST_END = " \t\r\n/?#'\"`<>),;]}"
_PORT_PATH = re.compile(r"\d{1,5}(?:/.*)?", re.DOTALL)


def _credential(match: Match) -> tuple[str, str, str] | None:
    """(user, password, host) of the credential in a URL's authority, or None when there is none.

    The password may contain "@" and "/" (`P@ssw0rd!2024x@db`, `q8Z/vK3+rT9wLmN2@rds`): the host is
    after the first "@" that is followed by something shaped like a host and the end of the
    authority.
    """
    whole = str(match.group(0))
    user = whole.split("://", 1)[1].split(":", 1)[0][-MAX_VALUE:]
    # The lazy pattern stops at the first "@"; the password may run on past it.
    start = match.end() - 1 - len(str(match.group("password")))
    tail = match.string[start : start + 512]
    limit = min((tail.find(c) for c in " \t\r\n'\"`" if c in tail), default=len(tail))
    at = tail.find("@", 1, limit)
    # At most four "@" are tried: a password with more is not worth a longer search per candidate.
    for _ in range(4):
        if at < 0:
            return None
        host = _HOST.match(tail, at + 1)
        following = tail[host.end() : host.end() + 1] if host else "x"
        if host and (not following or following in _HOST_END):
            password = tail[:at]
            if _PORT_PATH.fullmatch(password):
                return None  # "host:8080/path@x": a port and a path, not a password
            return user, password, host.group(0)
        at = tail.find("@", at + 1, limit)
    return None


def _connection_string(match: Match) -> bool:
    found = _credential(match)
    if found is None:
        return False
    user, password, host = found
    password = password[:128]  # longer than any password people type; bounds the checks below
    if benign.placeholder_value(password) or benign.reference(password):
        return False
    return not (benign.local_host(host) and benign.development_default(password, user))


# --- passwords and secrets assigned to a name -----------------------------------------------------------

_KEY_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_SECRET_WORDS = frozenset(
    {
        "password", "passwd", "pwd", "pass", "passphrase", "secret", "token", "apikey", "credential",
        "credentials", "cred", "creds", "auth", "authorization", "bearer", "secretkey", "accesskey",
        "privatekey", "clientsecret", "authtoken", "accesstoken",
    }
)  # fmt: skip
# "key" is a secret only when qualified: api_key, secret_key, signing key, not cache_key or sort_key.
_KEY_QUALIFIERS = frozenset(
    {
        "api", "access", "secret", "private", "signing", "sign", "encryption", "encrypt", "master",
        "client", "app", "application", "auth", "account", "service", "webhook", "license", "session",
        "jwt", "hmac", "aes", "crypto", "cipher", "subscription", "admin", "consumer", "shared", "bot",
        "deploy", "integration", "ingest", "write", "server", "partner", "fernet", "django", "rails",
    }
)  # fmt: skip
# A name that describes the secret rather than holding it: PASSWORD_FILE, TOKEN_URL, SECRET_NAME,
# password_min_length, token_expiry.
_ABOUT_WORDS = frozenset(
    {
        "url", "uri", "endpoint", "host", "file", "path", "dir", "name", "type", "kind", "length", "len",
        "size", "min", "max", "expiry", "expires", "expiration", "ttl", "timeout", "lifetime", "age",
        "count", "limit", "policy", "rotation", "header", "field", "prefix", "suffix", "enabled",
        "required", "mode", "method", "format", "version", "algorithm", "alg", "env", "var", "ref",
        "source", "provider", "store", "manager", "backend", "location", "id", "hint", "reset", "label",
        "days", "seconds", "minutes", "hours", "rounds", "hash", "hasher", "hashers", "digest", "scope",
        "scopes", "reference",
    }
)  # fmt: skip


def secret_name(key: str) -> bool:
    """Whether a variable, field or flag name holds a secret: DB_PASSWORD, jwtSecret, api-key."""
    words = [w.lower() for w in _KEY_WORDS.findall(key)]
    if not words or words[-1] in _ABOUT_WORDS:
        return False
    for index, word in enumerate(words):
        if word in _SECRET_WORDS or word.endswith(("password", "passwd", "secret", "apikey", "token")):
            return True
        if word in {"key", "keys"} and index > 0 and words[index - 1] in _KEY_QUALIFIERS:
            return True
    return False


_ASSIGNED_KEY = re.compile(r"^(?:--)?([A-Za-z0-9_.\-]+)")
_QUOTED_NAME = re.compile(r"[\"']([A-Za-z0-9_.\-]+)[\"']")
_LOOKUP_NAME = re.compile(r"\(\s*[\"']([A-Za-z0-9_.\-]+)")
# The literal default of an environment lookup: ("NAME", "value") or ("NAME", default="value").
_LOOKUP_DEFAULT = (
    r"\([ \t]{{0,5}}[\"'][A-Za-z0-9_.\-]+[\"'][ \t]{{0,5}},[ \t]{{0,5}}"
    r"(?:default[ \t]{{0,3}}=[ \t]{{0,3}})?[\"'](?P<{}>[^\s\"'`]{{8,}})"
)


def real_secret_value(value: str) -> bool:
    """A free-form value that looks machine-made: not a reference, not a placeholder, and with
    enough entropy and character classes. "password=hunter2hunter2" passes on purpose (low-entropy
    words are too often prose); "password=Tr0ub4dor&3xQ" does not."""
    stripped = value.rstrip(".)]}>")  # the end of a sentence or a bracket, not part of the value
    # The cheap measures first: most candidates in ordinary text are words and fail here.
    if len(stripped) < 8 or benign.character_classes(stripped) < 2 or benign.shannon_entropy(stripped) < 3.0:
        return False
    # Without a host to say where it works, a default account password ("demo1234") is a weak
    # example, not a credential.
    return not any(
        benign.reference(v) or benign.placeholder_value(v) or benign.account_default(v)
        for v in {value, stripped}
    )


def _assigned_secret(match: Match) -> bool:
    groups = {k: str(v)[:MAX_VALUE] for k, v in match.groupdict().items() if v}
    if groups.get("bearer"):
        return real_secret_value(groups["bearer"])
    if groups.get("attribute"):
        # <add key="ApiSecret" value="…"/>, <property name="password" value="…"/>
        name = _QUOTED_NAME.search(str(match.group(0)))
        return bool(name and secret_name(name.group(1)[-80:]) and real_secret_value(groups["attribute"]))
    default = groups.get("default") or groups.get("fallback")
    if default:
        # os.environ.get("SECRET_KEY", "<the key itself>"): the default is as real as any assignment.
        head = str(match.group(0))[: 2 * MAX_VALUE]
        names = [m.group(1) for m in (_ASSIGNED_KEY.match(head), _LOOKUP_NAME.search(head)) if m]
        return any(secret_name(n[-80:]) for n in names) and real_secret_value(default)
    name = _ASSIGNED_KEY.match(str(match.group(0))[:MAX_VALUE])
    return bool(name and secret_name(name.group(1)[-80:]) and real_secret_value(groups.get("value", "")))


_FIRST: tuple[Family, ...] = (
    # PEM / OpenSSH / PGP private key blocks, SSH2 (---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----) and
    # PuTTY key files. Limit: key material pasted without its BEGIN line is not seen.
    Family(
        "private_key",
        "a private key",
        linear(
            r"-{3,5} ?BEGIN (?:[A-Z0-9]{1,20} ){0,4}PRIVATE KEY(?: BLOCK)? ?-{3,5}"
            r"|(?P<ppk>PuTTY-User-Key-File-\d{1,2})"
        ),
        _private_key,
    ),
    # AWS access key ids (long-lived AKIA, temporary ASIA...). Limit: the 40-character secret access key
    # has no prefix; it is caught only when assigned to a recognisable name (secret_assignment).
    Family(
        "aws_access_key",
        "an AWS access key id",
        linear(r"(?:^|[^A-Z0-9])(?P<secret>(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16})"),
        not_followed_by(UPPER_ALNUM, token(4)),
    ),
    # GCP service-account key files (their private_key_id) and Google API keys.
    Family(
        "gcp_credentials",
        "a Google Cloud credential",
        linear(
            r"private_key_id[\"']?[ \t]{0,5}[:=]?[ \t]{0,5}[\"']?(?P<secret>[0-9a-f]{40})"
            r"|" + START + r"(?P<api>AIza[0-9A-Za-z_\-]{35})"
        ),
        _gcp,
    ),
    # GitHub tokens: classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained (github_pat_).
    Family(
        "github_token",
        "a GitHub token",
        linear(START + r"(?P<secret>gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,})"),
        token(4),
    ),
    Family(
        "gitlab_token",
        "a GitLab token",
        linear(START + r"(?P<secret>gl(?:pat|dt|rt|cbt|ptt|ft|imt|oas|soat|agent)-[A-Za-z0-9_\-]{20,})"),
        token_after("-"),
    ),
    # Slack bot/user/app tokens and incoming-webhook URLs.
    Family(
        "slack_token",
        "a Slack token",
        linear(
            START + r"(?P<secret>xox[abprse]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,}"
            r"|https://hooks\.slack\.com/(?:services|workflows|triggers)/T[A-Z0-9]{4,}/[A-Z0-9]{4,}"
            r"/[A-Za-z0-9_]{8,})"
        ),
        _slack,
    ),
    # Stripe secret and restricted keys, and webhook signing secrets. Publishable keys (pk_) are public.
    Family(
        "stripe_key",
        "a Stripe secret key",
        linear(START + r"(?P<secret>(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9+/=]{24,})"),
        token_after("_"),
    ),
    # OpenAI (sk-..., sk-proj-..., sk-svcacct-..., the legacy sk-None-...) and Anthropic (sk-ant-...)
    # API keys. Limit: providers without a prefix.
    Family(
        "ai_provider_key",
        "an OpenAI or Anthropic API key",
        linear(
            START
            + r"(?P<secret>sk-(?:ant-(?:api|admin)\d\d-|proj-|svcacct-|admin-|None-)?[A-Za-z0-9_\-]{32,})"
        ),
        _ai_key,
    ),
    Family(
        "npm_token",
        "an npm token",
        linear(START + r"(?P<secret>npm_[A-Za-z0-9]{36})"),
        not_followed_by(ALNUM, token(4)),
    ),
    Family(
        "pypi_token",
        "a PyPI token",
        linear(START + r"(?P<secret>pypi-AgE[A-Za-z0-9_\-]{50,})"),
        token(8),
    ),
    # JSON Web Tokens: a base64url JSON header ("eyJ") and the start of a JSON payload; the signature
    # is not required (a token cut off before it still carries its claims). Limit: JWE and unsigned
    # tokens of other shapes.
    Family(
        "jwt",
        "a JSON Web Token",
        linear(START + r"(?P<secret>eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8})"),
        token(0),
    ),
    # user:password@ in any URL or connection string, the user possibly empty and the password
    # possibly holding "@" or "/". References (${DB_PASSWORD}) and placeholders (****, <password>)
    # pass anywhere; development defaults (postgres:postgres, guest:guest) pass on loopback and
    # compose-service hosts. Limit: passwords given as separate fields fall to the next family.
    Family(
        "connection_string_password",
        "a password inside a connection string or URL",
        linear(
            r"(?i)[a-z][a-z0-9+.\-]*://[^\s:/@'\"`<>]*:"
            r"(?P<password>[^\s'\"`]+?)@"
        ),
        _connection_string,
    ),
    # password= / secret: / api_key = "..." / --token VALUE / Bearer VALUE with a value that looks
    # machine-made. Limit: low-entropy or dictionary passwords, and secrets under names it does not know.
    Family(
        "secret_assignment",
        "a password or secret assigned to a variable",
        linear(
            r"(?i)(?:(?:key|name)[ \t]*=[ \t]*[\"'][A-Za-z0-9_.\-]+[\"'][ \t]+value[ \t]*=[ \t]*[\"']"
            r"(?P<attribute>[^\s\"'`]{8,})"
            r"|(?:[a-z0-9_.\-]*(?:pass|pwd|secret|token|key|auth|cred)[a-z0-9_.\-]*"
            r"[\"'`\]]{0,2}[ \t]*(?:=>|:=|=|:)"
            r"|--[a-z0-9\-]{0,30}(?:password|passwd|token|secret|key)[ \t]{1,3})"
            r"[ \t]*[\"'`]?(?:[A-Za-z_][A-Za-z0-9_.]*" + _LOOKUP_DEFAULT.format("default") + "|"
            r"(?P<value>[^\s\"'`,;]{8,}))"
            r"|\bbearer[ \t]{1,5}(?P<bearer>[A-Za-z0-9._~+/\-]{16,}={0,2})"
            r"|(?:getenv|get|env|fetch|config|environ)" + _LOOKUP_DEFAULT.format("fallback") + ")"
        ),
        _assigned_secret,
    ),
    # Payment card numbers: 13-19 digits, ungrouped or in the groups cards are printed in (spaces,
    # tabs or dashes), a known network prefix and length, Luhn-valid, not part of a longer number
    # or a decimal. Limit: a Luhn-valid order or tracking number of a card's shape is refused too.
    Family(
        "payment_card",
        "a payment card number",
        linear(r"(?P<secret>[2-6]\d{3}(?:[ \t\-]{0,3}\d){9,15})"),
        cards.card,
    ),
    # US Social Security numbers with dashes (any Unicode dash, see normalize.py), excluding numbers
    # never issued (000, 666, 9xx area, 00 group, 0000 serial). Limit: undashed SSNs are not
    # screened (too many false positives).
    Family(
        "us_ssn",
        "a US Social Security number",
        linear(r"(?P<secret>\d{3}-\d{2}-\d{4})"),
        cards.ssn,
    ),
)

# Payment cards printed with one repeated separator other than a space or a dash (4111.1111.1111.1111,
# one group per line): the same family, a second shape (cards.separated says which runs qualify).
# Limit: a list of four four-digit numbers, one per line, that happens to be a Luhn-valid card of a
# known network is refused too.
_SEPARATED_CARD = Family(
    "payment_card",
    "a payment card number",
    linear(r"(?P<secret>[2-6]\d{3}(?:(?:[._/]|\r?\n)\d{1,6}){2,5})"),
    cards.separated,
)

# The families above were the gate's first: they run first, so a text refused before the later
# families existed keeps the family its refusal and audit row named. Each later one finds only what
# the earlier ones let through (issue 20: vendor tokens, Knownbase keys, command-line passwords).
FAMILIES: tuple[Family, ...] = (*_FIRST, *services.FAMILIES, *commands.FAMILIES, _SEPARATED_CARD)
FAMILY_NAMES = tuple(dict.fromkeys(f.name for f in FAMILIES))
