"""What is not a secret although it sits where a secret could: references and placeholders.

An agent that is refused for a README learns to stop writing, so the gate must let ordinary
developer text through: a value that names where the secret lives (`${DB_PASSWORD}`,
`os.environ.get("X")`, `/run/secrets/db`, `vault:secret/data/x`, `arn:aws:secretsmanager:…`), a value
that stands in for one (`your-secret-key-here`, `<password>`, `changeme`, `xxxx`, `***`, the AWS
documentation's `…EXAMPLE` keys) and, on a developer's own machine or compose network, the fixed
defaults every tutorial uses (`postgres:postgres@db`, `guest:guest@rabbitmq`).

Each check here looks at one candidate value the patterns already found, cut to at most
patterns.MAX_VALUE characters, so the Python regular expressions below run on bounded input and
cost at most a constant per candidate.
"""

from __future__ import annotations

import math
import re
from collections import Counter

# Words that mark a value as written for a reader, not for a machine, found anywhere in the value
# (case and separators ignored); long enough that a random token contains one with negligible
# probability. Plain substring tests: an alternation of words costs Python's re a pass per word.
_MARKER_WORDS = (
    "example", "sample", "placeholder", "changeme", "changeit", "replaceme", "replacewith", "replacethis",
    "redacted", "dummy", "your", "fixme", "insert", "notreal", "notareal", "fake", "goeshere",
)  # fmt: skip
_MARKS = ("xxxx", "***", "...", "…")
# A value that ends in "-here" / "_here" ("put-token-here") or is "todo"/"tbd".
_SUFFIXES = re.compile(r"[-_.]here$|^(?:todo|tbd)$", re.IGNORECASE)

# The words of a generic value: "password", "secret123", "changeme". Anywhere, these stand in for a
# secret.
_GENERIC = re.compile(
    r"^(?:pass(?:word|wd|phrase)?|pwd|secrets?|tokens?|api[-_]?key|keys?|none|null|nil|empty|undefined|"
    r"abc|foo|bar|baz|foobar|hello)[-_.!]?\d{0,6}$",
    re.IGNORECASE,
)
# Default account passwords: a stand-in on a developer's own machine, a weak real password on a
# server anyone can reach.
_ACCOUNT_DEFAULTS = re.compile(
    r"^(?:admin|administrator|root|guest|users?|test(?:ing)?|demo|default|dev|local|login|welcome|letmein|"
    r"qwerty|postgres(?:ql)?|mysql|mariadb|mongo(?:db)?|redis|rabbit(?:mq)?|minio(?:admin)?|elastic|kibana|"
    r"keycloak|grafana|sa|app|docker|compose)[-_.!]?\d{0,6}$",
    re.IGNORECASE,
)
# Words that make a lower-case word value ("ci_password", "devpass", "dummy-token-for-tests") a
# stand-in: a human named it for what it is instead of making it random.
_STAND_IN_WORDS = (
    "pass", "pwd", "secret", "token", "key", "sample", "dummy", "fake", "mock", "insecure", "change",
    "generate", "random", "example", "here", "value",
)  # fmt: skip
# The same for account words, which only stand in on a developer's own machine ("devroot", "test_user").
_ACCOUNT_WORDS = ("test", "admin", "root", "guest", "demo", "dev", "local", "default", "user")
_SEPARATORS = str.maketrans("", "", "-_. ")
# Words, each possibly with a short number ("base64"), and a number at the end; random lower-case
# hex ("key-91f7dd9c…") is not words.
_LOWER_WORDS = re.compile(r"^[a-z]+\d{0,3}(?:[-_.][a-z]{2,}\d{0,3})*[-_.!]?\d{0,6}$")

# Characters a masking tool or a writer uses in place of the secret.
_MASK_CHARS = set("*x#.X•_-0<>?")
_LONG_RUN = re.compile(r"(.)\1{5}")


def shannon_entropy(value: str) -> float:
    if not value:
        return 0.0
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def character_classes(value: str) -> int:
    chars = set(value)
    return sum(
        (
            any(c.islower() for c in chars),
            any(c.isupper() for c in chars),
            any(c.isdigit() for c in chars),
            any(not c.isalnum() for c in chars),
        )
    )


def masked(value: str) -> bool:
    """Made of mask characters or one character repeated: `xxxxxxxx`, `********`, `0000…`."""
    stripped = value.strip("\"'`")
    if not stripped:
        return True
    if set(stripped) <= _MASK_CHARS or len(set(stripped.lower())) <= 2:
        return True
    return bool(_LONG_RUN.search(stripped))


def _contains(text: str, words: tuple[str, ...]) -> bool:
    return any(word in text for word in words)


def marked(text: str) -> bool:
    """Carries a word or mark that writers put in place of a secret ("your", "example", "...")."""
    lower = text.lower()
    return _contains(lower, _MARKS) or _contains(lower.translate(_SEPARATORS), _MARKER_WORDS)


def placeholder_token(body: str) -> bool:
    """A fixed-shape token that is a documentation stand-in: masked, or carrying a marker word
    (the AWS docs' `AKIAIOSFODNN7EXAMPLE`, `ghp_yourTokenHere…`, `sk-proj-XXXX…`)."""
    return masked(body) or marked(body) or bool(_SUFFIXES.search(body))


def placeholder_value(value: str) -> bool:
    """A free-form value (a password, a signing key) that stands in for the real one."""
    value = value.strip("\"'`")
    if len(value) < 3 or masked(value):
        return True
    if value[0] in "<[({" or (value[0] == "%" and value[-1:] in "%s"):
        return True
    if marked(value) or _SUFFIXES.search(value) or _GENERIC.match(value):
        return True
    # Lower-case words with at most a trailing number: "ci_password", "devpass", "minioadmin",
    # "dummy-token-for-tests". A diceware passphrase ("correct-horse-battery-staple") has none of
    # the stand-in words and stays a secret.
    return bool(_LOWER_WORDS.match(value)) and _contains(value, _STAND_IN_WORDS)


# --- references: the value says where the secret is -------------------------------------------------

# Secret managers and encrypted-value formats: vault:…, op://…, arn:aws:…, ENC[…], sops, Azure Key
# Vault references, CloudFormation dynamic references.
_MANAGER = re.compile(
    r"^(?:vault|op|arn|ssm|awssm|aws-sm|gcpsm|gcp-sm|azkv|kv|sops|kms|secretsmanager|keyvault|doppler|"
    r"infisical|bws|gopass|secret|secretref|ref|env|file|k8s|gsm)(?::|\+|//)|^ENC\[|^!vault|^!Ref|^!Sub|"
    r"^@Microsoft\.KeyVault\(|^\{\{resolve:",
    re.IGNORECASE,
)
# Interpolation of a variable, a template or a command: $VAR, ${VAR}, $(cmd), ${{ secrets.X }},
# %VAR%, %(name)s, {{ var }}, <%= ENV[...] %>, #{var}.
_INTERPOLATION = re.compile(r"^(?:\$[A-Za-z_{(]|%[A-Za-z_(]|\{\{|\{%|<%|#\{)")
# Code that reads the secret: os.environ.get(, getenv(, env(, config(, settings.X, process.env.X,
# ENV.fetch(, Variable.get(, request.form[.
_CALL = re.compile(r"^[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)*[(\[]")
_DOTTED = re.compile(r"^[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)+$")
# The name of a variable: DB_PASSWORD, STRIPE_SECRET_KEY, dbPassword, db_password.
_CONSTANT = re.compile(r"^[A-Z]{2,}(?:_[A-Z0-9]{1,})+$")
_CAMEL = re.compile(r"^[a-z]+(?:[A-Z][a-z]+)+$")
_SNAKE = re.compile(r"^[a-z]+(?:_[a-z]+)+$")
# Files: /run/secrets/db-password, ./secrets/key.pem, ~/.pgpass, C:\keys\app.pfx, secrets/db.txt.
_PATH = re.compile(
    r"^(?:~|\.{1,2})?/(?:[\w.@+-]+/)*[\w.@+-]+/?$|^[A-Za-z]:\\|^(?:[\w.@-]+/)+[\w.@-]+\.\w{1,6}$"
)
_PATH_SEGMENT = re.compile(r"^(?:[A-Z]?[a-z0-9._@+-]+|[\w.@-]+\.\w{1,6})$")
# A secret manager's path: secret/data/api, projects/acme/secrets/stripe-key/versions/latest.
_MANAGER_PATH = re.compile(r"^[a-z0-9_.:@-]+(?:/[a-z0-9_.:@-]+){2,}$")
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]{0,30}://")


def reference(value: str) -> bool:
    """The value names where a secret lives instead of being one."""
    value = value.strip("\"'`")
    if not value:
        return True
    if _MANAGER.match(value) or _INTERPOLATION.match(value) or _CALL.match(value):
        return True
    if _DOTTED.match(value) or _CONSTANT.match(value) or _CAMEL.match(value) or _SNAKE.match(value):
        return True
    if _URL.match(value):
        # A URL without credentials is an address; one with credentials is the connection-string
        # family's business.
        return True
    return bool(_MANAGER_PATH.match(value)) or _path(value)


def _path(value: str) -> bool:
    if not _PATH.match(value):
        return False
    segments = [s for s in re.split(r"[/\\]", value) if s and s not in {"~", ".", ".."}]
    # Random base64 contains "/" too; its segments mix cases mid-word, a path's do not.
    return all(_PATH_SEGMENT.match(segment) for segment in segments)


# --- hosts: where a connection string points ------------------------------------------------------

_LOOPBACK = re.compile(
    r"^(?:localhost|[\w.-]*\.localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[?::1\]?|host\.docker\.internal|"
    r"[\w.-]*\.(?:local|test|example|invalid|internal\.example)|(?:[\w-]+\.)*example\.(?:com|org|net))$",
    re.IGNORECASE,
)


def local_host(host: str) -> bool:
    """Loopback, a reserved documentation domain, or a one-label compose service name (`db`)."""
    host = host.rsplit("@", 1)[-1]
    name = host.split(":", 1)[0] if not host.startswith("[") else host.split("]", 1)[0] + "]"
    if not name or _INTERPOLATION.match(name):
        return True
    return bool(_LOOPBACK.match(name)) or ("." not in name and not name.startswith("["))


def account_default(value: str) -> bool:
    """A default account password ("admin", "root", "demo1234", "test_user")."""
    return bool(_ACCOUNT_DEFAULTS.match(value)) or (
        bool(_LOWER_WORDS.match(value)) and _contains(value, _ACCOUNT_WORDS)
    )


def development_default(password: str, user: str) -> bool:
    """A password that is only a stand-in on a developer's own machine or compose network."""
    return password.lower() == user.lower() or account_default(password)


def random_looking(body: str) -> bool:
    """Machine-made rather than a slug of words: digits in it, and few separators ("sk-…" keys are
    random; "sk-learn-pipeline-for-lead-scoring" is a name)."""
    digits = sum(c.isdigit() for c in body)
    separators = sum(c in "-_" for c in body)
    return digits >= 2 and separators * 6 <= len(body)
