"""The same tools over stdio, with the official client spawning `manage.py mcp_stdio`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from django.db import connection
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from accounts.models import AuditEvent
from mcp_gateway.tooling import TOOLS

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow  # the stdio server is a process of its own


def stdio_env(key: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(KNOWNBASE_API_KEY=key, KNOWNBASE_DB_NAME=connection.settings_dict["NAME"])
    if "DATABASE_URL" in env:
        env["DATABASE_URL"] = env["DATABASE_URL"].rsplit("/", 1)[0] + "/" + connection.settings_dict["NAME"]
    return env


def test_tools_over_stdio(cast, transactional_db):
    key = cast.key(cast.member)
    params = StdioServerParameters(
        command=sys.executable, args=["manage.py", "mcp_stdio"], env=stdio_env(key), cwd=ROOT
    )

    async def run():
        async with Client(params) as client:
            tools = [tool.name for tool in (await client.list_tools()).tools]
            listed = await client.call_tool("list_projects", {})
            stored = await client.call_tool("remember", {"project": "payments", "content": "Stdio works too"})
            return tools, listed, stored

    tools, listed, stored = anyio.run(run)
    assert sorted(tools) == sorted(TOOLS)  # stdio serves the full set
    assert [p["slug"] for p in listed.structured_content["projects"]] == ["payments", "website"]
    assert stored.structured_content["status"] == "created"
    # The note names the real client (the SDK client's clientInfo), and the audit row how it came in.
    assert stored.structured_content["note"]["source"] == "mcp"
    event = AuditEvent.objects.filter(action="note.created").latest("pk")
    assert (event.client, event.auth_method) == ("mcp", "stdio")


def test_refuses_to_start_without_a_valid_key(cast, transactional_db):
    done = subprocess.run(
        [sys.executable, "manage.py", "mcp_stdio"],
        cwd=ROOT,
        env=stdio_env("kb_000000000000notavalidkeyatall0000"),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0 and "KNOWNBASE_API_KEY" in done.stderr
