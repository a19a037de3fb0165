"""The official MCP client connected to the tool server inside the test process: the same server
class, argument validation, rate limit and result shapes as /mcp, without HTTP. The caller's API key
is resolved by the real resolver, exactly as /mcp's credential verifier does; what only HTTP proves
(Bearer authentication, the transport, one contract test per tool) stays with tests/live_mcp.py.

Tool calls run the store in worker threads with their own connections, so tests use
`transactional_db` for their rows to be visible there.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.types import CallToolResult

from edge.principals import api_key_principal
from mcp_gateway.auth import process_principal
from mcp_gateway.server import KnownbaseMCP, build_server


class InProcessMcp:
    """The interface of tests/live_mcp.py's McpCaller, over an in-memory connection."""

    def __init__(self) -> None:
        self.server: KnownbaseMCP = build_server(http=False)

    def call(self, key: str, tool: str, arguments: dict[str, Any] | None = None) -> CallToolResult:
        principal = api_key_principal(key)  # as /mcp resolves it, with the plan's rate
        assert principal is not None, "not a live API key"

        async def run() -> CallToolResult:
            # Set inside the event loop's task, so this call alone acts for the key.
            process_principal.set(principal)
            async with Client(self.server, mode="legacy") as client:
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


@pytest.fixture
def local_mcp(transactional_db: None) -> InProcessMcp:
    return InProcessMcp()
