"""MCP tools: parse → call the store → shape. Descriptions are instructions to the agent."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult
from pydantic import Field

from mcp_gateway.auth import current_principal
from mcp_gateway.results import call_store
from mcp_gateway.tooling import tool
from memory import store

ProjectName = Annotated[str, Field(min_length=1, max_length=120)]


@tool("read")
async def list_projects() -> CallToolResult:
    """List the projects this credential can see, with slug, name, summary and note count.
    Use a slug as `project` in other tools."""
    return await call_store(store.list_projects, current_principal())


@tool("write")
async def create_project(
    name: ProjectName,
    slug: Annotated[
        str | None, Field(max_length=60, description="lowercase-hyphenated; derived from name")
    ] = None,
    summary: Annotated[str | None, Field(max_length=20000)] = None,
    agent_instructions: Annotated[
        str | None, Field(max_length=20000, description="shown to agents in get_context")
    ] = None,
) -> CallToolResult:
    """Create a project (team-wide keys only). Returns its slug."""
    return await call_store(
        store.create_project,
        current_principal(),
        name=name,
        slug=slug,
        summary=summary,
        agent_instructions=agent_instructions,
    )
