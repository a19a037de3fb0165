"""A real uvicorn serving knownbase.asgi on a free port, and the official MCP client to call it.

The server runs in a thread of the test process, so it uses the test database; tests that call it
use `transactional_db` so the rows they create are committed and visible to the server's threads.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import httpx2
import pytest
import uvicorn
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult

from tests import tiers


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serving(application: Any, port: int, django_db_blocker: Any) -> Iterator[None]:
    """Run `application` under uvicorn in a thread of this process until the block ends."""
    tiers.require(tiers.LIVE_SERVER)
    # Proxy headers off, as every real server command starts it (tests/knownbase/test_server_commands.py).
    config = uvicorn.Config(
        application, host="127.0.0.1", port=port, lifespan="on", log_level="warning", proxy_headers=False
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    with django_db_blocker.unblock():
        thread.start()
        deadline = time.monotonic() + 20
        while not server.started:
            if time.monotonic() > deadline or not thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.05)
        yield
        server.should_exit = True
        thread.join(timeout=10)
        # Worker threads keep their connections; end them so the test database can be dropped.
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )


@pytest.fixture(scope="session")
def mcp_url(django_db_setup: None, django_db_blocker: Any) -> Iterator[str]:
    from knownbase.asgi import application

    port = free_port()
    with serving(application, port, django_db_blocker):
        yield f"http://127.0.0.1:{port}/mcp"


class McpCaller:
    """Calls tools over HTTP with the official client, one connection per call batch."""

    def __init__(self, url: str) -> None:
        self.url = url

    def _client(self, key: str | None, url: str | None = None) -> Client:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        # httpx's default 5 s read timeout is shorter than a first remember (model load, judgement)
        # takes on a loaded 2-core machine; a hung server still fails the test, later.
        http = httpx2.AsyncClient(headers=headers, timeout=60)
        return Client(streamable_http_client(url or self.url, http_client=http))

    def call(self, key: str, tool: str, arguments: dict[str, Any] | None = None) -> CallToolResult:
        async def run() -> CallToolResult:
            async with self._client(key) as client:
                return await client.call_tool(tool, arguments or {})

        return anyio.run(run)

    def ok(self, key: str, tool: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        result = self.call(key, tool, arguments)
        assert not result.is_error, result.structured_content
        assert result.structured_content is not None
        return result.structured_content

    def error(self, key: str, tool: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        result = self.call(key, tool, arguments)
        assert result.is_error, result.structured_content
        assert result.structured_content is not None
        error: dict[str, Any] = result.structured_content["error"]
        return error

    def list_tools(self, key: str, url: str | None = None) -> list[Any]:
        async def run() -> list[Any]:
            async with self._client(key, url) as client:
                return list((await client.list_tools()).tools)

        return anyio.run(run)


@pytest.fixture
def mcp(mcp_url: str, transactional_db: None) -> McpCaller:
    return McpCaller(mcp_url)
