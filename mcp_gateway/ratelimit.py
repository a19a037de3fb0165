"""Per-IP rate limit in front of /mcp, applied before any credential is looked up."""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterable
from typing import Any

from django.conf import settings

from billing.ratelimit import hit


def client_ip(scope: dict[str, Any]) -> str:
    """The address an ASGI request came from, as far as it can be believed (see forwarded_client)."""
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


class IpRateLimit:
    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            decision = await hit(f"ip:{client_ip(scope)}", settings.RATE_LIMIT_PER_IP_PER_MINUTE)
            if not decision.allowed:
                body = json.dumps(
                    {
                        "error": "rate_limited",
                        "error_description": f"More than {decision.limit} requests a minute from this address; "
                        f"retry in {decision.retry_after} s.",
                    }
                ).encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": 429,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"retry-after", str(decision.retry_after).encode()),
                            (b"content-length", str(len(body)).encode()),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
