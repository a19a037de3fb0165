"""Typed readers for settings that come from the environment.

Each helper raises ImproperlyConfigured with the variable's name when a value cannot be parsed, so a
typo in a deployment stops the process at start-up instead of surfacing as odd behaviour later.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "", environ: Mapping[str, str] | None = None) -> str:
    source = os.environ if environ is None else environ
    return source.get(name, default).strip()


def env_bool(name: str, default: bool = False, environ: Mapping[str, str] | None = None) -> bool:
    raw = env_str(name, "", environ)
    if raw == "" and name not in (os.environ if environ is None else environ):
        return default
    lowered = raw.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be one of {sorted(_TRUE | _FALSE - {''})}, got {raw!r}")


def env_int(
    name: str,
    default: int,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    raw = env_str(name, "", environ)
    if raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, got {raw!r}") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ImproperlyConfigured(f"{name} must be at most {maximum}, got {value}")
    return value


def env_list(name: str, default: list[str], environ: Mapping[str, str] | None = None) -> list[str]:
    raw = env_str(name, "", environ)
    if raw == "":
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_url(
    name: str,
    default: str = "",
    *,
    schemes: tuple[str, ...],
    environ: Mapping[str, str] | None = None,
) -> str:
    """A URL whose scheme is one of `schemes`, or "" when unset and no default is given."""
    raw = env_str(name, default, environ)
    if raw == "":
        return ""
    parts = urlsplit(raw)
    if parts.scheme not in schemes:
        raise ImproperlyConfigured(
            f"{name} must be a URL with scheme {' or '.join(schemes)}, got {parts.scheme!r}"
        )
    if not parts.netloc and not parts.path:
        raise ImproperlyConfigured(f"{name} has no host")
    return raw


def env_token(name: str, prefixes: tuple[str, ...], environ: Mapping[str, str] | None = None) -> str:
    """A key or id whose kind shows in its prefix (sk_…, whsec_…), or "" when unset: a key pasted
    into the wrong variable stops the start instead of failing the first payment."""
    raw = env_str(name, "", environ)
    if raw and (not raw.startswith(prefixes) or any(ch.isspace() for ch in raw)):
        # The value is not echoed: it may be a secret pasted into the wrong variable.
        raise ImproperlyConfigured(f"{name} must start with {' or '.join(prefixes)} and hold no spaces")
    return raw


def env_tokens_by_suffix(
    prefix: str, token_prefixes: tuple[str, ...], environ: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Every set variable named <prefix><SUFFIX>, keyed by the lower-cased suffix
    (STRIPE_PRICE_PRO=price_… → {"pro": "price_…"}), each checked like env_token."""
    source = os.environ if environ is None else environ
    found = {}
    for name in sorted(source):
        if name.startswith(prefix) and len(name) > len(prefix):
            value = env_token(name, token_prefixes, source)
            if value:
                found[name[len(prefix) :].lower()] = value
    return found


def database_from_url(url: str) -> dict[str, object]:
    """Django DATABASES entry for a postgres:// or postgresql:// URL."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql"):
        raise ImproperlyConfigured(f"DATABASE_URL must be a postgresql:// URL, got scheme {parts.scheme!r}")
    name = parts.path.lstrip("/")
    if not name:
        raise ImproperlyConfigured("DATABASE_URL must name a database, e.g. postgresql://host/knownbase")
    return {
        # Django's backend with the pool that fails fast when the server is unreachable.
        "ENGINE": "knownbase.db_backend",
        "NAME": name,
        "USER": parts.username or "",
        "PASSWORD": parts.password or "",
        "HOST": parts.hostname or "",
        "PORT": str(parts.port or ""),
    }


_EMAIL_BACKENDS = {
    "console": "django.core.mail.backends.console.EmailBackend",
    "locmem": "django.core.mail.backends.locmem.EmailBackend",
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
    "smtps": "django.core.mail.backends.smtp.EmailBackend",
}
_EMAIL_OPTIONS = ("tls", "ssl", "timeout")


@dataclass(frozen=True)
class EmailSettings:
    backend: str
    host: str = "localhost"
    port: int = 25
    user: str = ""
    password: str = ""
    use_tls: bool = False
    use_ssl: bool = False
    timeout: int = 10


def email_from_url(url: str) -> EmailSettings:
    """Django's EMAIL_* settings for an EMAIL_URL: `smtp://user:pass@host:587?tls=1` (STARTTLS),
    `smtps://user:pass@host` (TLS from the first byte), `console://` (the default: mail is printed)
    or `locmem://` (kept in memory, for tests). User and password are percent-decoded."""
    parts = urlsplit(url or "console://")
    scheme = parts.scheme
    if scheme not in _EMAIL_BACKENDS:
        raise ImproperlyConfigured(
            f"EMAIL_URL must start with {', '.join(s + '://' for s in _EMAIL_BACKENDS)}, got {scheme!r}"
        )
    if scheme in ("console", "locmem"):
        return EmailSettings(backend=_EMAIL_BACKENDS[scheme])
    options = dict(parse_qsl(parts.query, keep_blank_values=True))
    unknown = sorted(set(options) - set(_EMAIL_OPTIONS))
    if unknown:
        raise ImproperlyConfigured(f"EMAIL_URL has unknown options {unknown}; known: {list(_EMAIL_OPTIONS)}")
    try:
        use_tls = env_bool("tls", environ=options)
        use_ssl = scheme == "smtps" or env_bool("ssl", environ=options)
        timeout = env_int("timeout", 10, minimum=1, maximum=300, environ=options)
    except ImproperlyConfigured as exc:
        raise ImproperlyConfigured(f"EMAIL_URL option {exc}") from None
    if use_tls and use_ssl:
        raise ImproperlyConfigured("EMAIL_URL: choose tls=1 (STARTTLS) or ssl (smtps://), not both")
    if not parts.hostname:
        raise ImproperlyConfigured("EMAIL_URL has no host, e.g. smtp://user:pass@smtp.example.com:587?tls=1")
    try:
        port = parts.port
    except ValueError:
        raise ImproperlyConfigured("EMAIL_URL has a port that is not a number") from None
    return EmailSettings(
        backend=_EMAIL_BACKENDS[scheme],
        host=parts.hostname,
        port=port or (465 if use_ssl else 587 if use_tls else 25),
        user=unquote(parts.username or ""),
        password=unquote(parts.password or ""),
        use_tls=use_tls,
        use_ssl=use_ssl,
        timeout=timeout,
    )
