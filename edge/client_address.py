"""The address a request came from, as far as it can be believed: X-Forwarded-For read only as far
as settings.TRUSTED_PROXY_COUNT proxies vouch for it. Every per-address limit reads it from here."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The client address of a Django request."""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    return forwarded_client(
        str(request.META.get("REMOTE_ADDR") or "unknown"), [str(forwarded)] if forwarded else []
    )


def scope_client_address(scope: dict[str, Any]) -> str:
    """The client address of an ASGI request (its scope), read the same way."""
    peer = str((scope.get("client") or ("unknown", 0))[0])
    headers = scope.get("headers", [])
    return forwarded_client(
        peer, [value.decode("latin-1") for name, value in headers if name.lower() == b"x-forwarded-for"]
    )


def forwarded_client(peer: str, forwarded_for: Iterable[str]) -> str:
    """The client address of a request from `peer` carrying these X-Forwarded-For header values.

    Each trusted proxy appends the address it received the request from to X-Forwarded-For, so with
    TRUSTED_PROXY_COUNT proxies in front the entry the farthest of them appended is the client's
    (the N-th from the right); entries left of it are whatever the client chose to send. With no
    trusted proxy, or no usable entry, the connection's own peer address is the client."""
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies <= 0:
        return peer
    entries = [entry.strip() for value in forwarded_for for entry in value.split(",")]
    if not entries:
        return peer
    # Fewer entries than proxies: the request passed fewer of them, and the leftmost entry is the
    # one the outermost proxy it did pass appended.
    return _address(entries[-min(proxies, len(entries))]) or peer


def _address(entry: str) -> str | None:
    """The IP address of an X-Forwarded-For entry ("1.2.3.4", "1.2.3.4:5678", "[2001:db8::1]:443",
    "2001:db8::1"), or None when it names none."""
    if entry.startswith("[") and "]" in entry:
        entry = entry[1 : entry.index("]")]
    elif entry.count(":") == 1:
        entry = entry.split(":", 1)[0]
    try:
        return str(ipaddress.ip_address(entry))
    except ValueError:
        return None
