"""Redirect URI rules for OAuth clients, applied at registration and again at authorization.

Loopback URIs (RFC 8252 §7.3: native clients listen on an ephemeral port) match on everything but
the port; every other URI must match a registered one byte for byte; plain `http` is allowed only on
loopback hosts, where the traffic never leaves the machine.
"""

from __future__ import annotations

from urllib.parse import urlsplit

# Compared as written in the URI: "LOCALHOST", "127.1" or "localhost." are not treated as loopback.
LOOPBACK_HOSTS = ("127.0.0.1", "[::1]", "localhost")
_LOOPBACK_SCHEME = "http://"


def _loopback_parts(uri: str) -> tuple[str, str] | None:
    """(host, everything after the port) of a loopback URI, as written; None for any other URI."""
    if not uri.startswith(_LOOPBACK_SCHEME):
        return None
    after_scheme = uri[len(_LOOPBACK_SCHEME) :]
    for host in LOOPBACK_HOSTS:
        if not after_scheme.startswith(host):
            continue
        rest = after_scheme[len(host) :]
        if rest.startswith(":"):
            digits = len(rest) - len(rest[1:].lstrip("0123456789")) - 1
            if digits == 0:
                return None
            rest = rest[1 + digits :]
        # Anything but a path or query here means the host goes on ("localhost.example.com") or
        # carries userinfo ("127.0.0.1@example.com"): not loopback.
        if rest and rest[0] not in "/?":
            return None
        return host, rest
    return None


def is_loopback(uri: str) -> bool:
    return _loopback_parts(uri) is not None


def redirect_uri_problem(uri: str) -> str | None:
    """Why `uri` may not be registered or used as a redirect URI, or None when it may."""
    try:
        parts = urlsplit(uri)
    except ValueError:
        return f"{uri!r} is not a valid URI."
    if "#" in uri:
        return f"{uri!r}: a redirect URI may not have a fragment."
    if parts.scheme == "http" and not is_loopback(uri):
        return (
            f"{uri!r}: plain http is allowed only on a loopback host (127.0.0.1, [::1] or localhost); "
            "use https."
        )
    return None


def redirect_uri_matches(requested: str, registered: str) -> bool:
    if redirect_uri_problem(requested) is not None:
        return False
    if requested == registered:
        return True
    asked, known = _loopback_parts(requested), _loopback_parts(registered)
    return asked is not None and asked == known


def redirect_uri_allowed(requested: str, registered: list[str]) -> bool:
    """Whether a client that registered the URIs `registered` may be sent back to `requested`."""
    return any(redirect_uri_matches(requested, candidate) for candidate in registered)
