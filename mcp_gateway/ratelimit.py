"""Per-address rate limit in front of /mcp (the mcp door of edge.doors), applied before any
credential is looked up."""

from __future__ import annotations

import json
from typing import Any

from edge import doors
from edge.client_address import scope_client_address


class IpRateLimit:
    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            decision = await doors.MCP.attempt(address=scope_client_address(scope)).ahit()
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
