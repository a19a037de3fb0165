"""ASGI entry point: /mcp and its OAuth metadata go to the MCP app, everything else to Django.

Django's ASGI handler refuses `lifespan` scopes, so this router answers them itself and starts the
MCP session managers there (run uvicorn with --lifespan on).
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "knownbase.settings")
django_app = get_asgi_application()

from accounts.site import MCP_PATH  # noqa: E402
from mcp_gateway.ratelimit import IpRateLimit  # noqa: E402  (needs Django set up)
from mcp_gateway.server import KnownbaseMCP, build_http_app, build_server  # noqa: E402

Scope = dict[str, Any]
AsgiApp = Callable[[Scope, Any, Any], Awaitable[None]]


def is_mcp_path(path: str) -> bool:
    return path in (MCP_PATH, f"{MCP_PATH}/") or path.startswith("/.well-known/oauth-protected-resource")


def _wants_core(scope: Scope) -> bool:
    query = scope.get("query_string", b"").decode("latin-1")
    return "toolset=core" in query.split("&")


async def _lifespan(servers: list[KnownbaseMCP], receive: Any, send: Any) -> None:
    async with AsyncExitStack() as stack:
        message = await receive()
        if message["type"] != "lifespan.startup":
            return
        try:
            for server in servers:
                await stack.enter_async_context(server.session_manager.run())
        except Exception as exc:
            await send({"type": "lifespan.startup.failed", "message": str(exc)})
            return
        await send({"type": "lifespan.startup.complete"})
        while (await receive())["type"] != "lifespan.shutdown":
            pass
    await send({"type": "lifespan.shutdown.complete"})


def build_application() -> AsgiApp:
    """The router with MCP apps built from the current settings (SITE_URL names the resource and
    its authorization server in the OAuth metadata)."""
    full_server = build_server()
    core_server = build_server(core_only=True)
    mcp_app = IpRateLimit(build_http_app(full_server))
    mcp_core_app = IpRateLimit(build_http_app(core_server))

    async def application(scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await _lifespan([full_server, core_server], receive, send)
        elif scope["type"] == "http" and is_mcp_path(scope.get("path", "")):
            app = mcp_core_app if _wants_core(scope) else mcp_app
            await app(scope, receive, send)
        else:
            await django_app(scope, receive, send)

    return application


application = build_application()
