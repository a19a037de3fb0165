"""The system check over the MCP tools: every tool classified, and classified as its store function."""

from __future__ import annotations

from dataclasses import replace

from mcp_gateway.checks import tools_are_classified
from mcp_gateway.tooling import TOOLS


def test_every_tool_agrees_with_its_store_function():
    assert tools_are_classified() == []


def test_a_tool_classified_unlike_its_store_function_fails_the_check(monkeypatch):
    monkeypatch.setitem(TOOLS, "remember", replace(TOOLS["remember"], kind="read"))
    errors = tools_are_classified()
    assert [error.id for error in errors] == ["mcp_gateway.E002"]
    assert "remember" in errors[0].msg
