from __future__ import annotations

from memory.recall.tokens import estimate_json_tokens

READ_TOOLS = {
    "get_context",
    "get_changes_since",
    "search_notes",
    "get_notes",
    "list_note_revisions",
    "get_note_revision",
    "list_projects",
    "export_project",
    "get_usage",
}
WRITE_TOOLS = {
    "remember",
    "checkpoint",
    "save_note",
    "patch_note",
    "delete_note",
    "relate_notes",
    "create_project",
    "rename_project",
    "rename_tag",
    "report_code_change",
    "confirm_note",
}
CORE_TOOLS = {"get_context", "get_changes_since", "remember", "checkpoint", "search_notes", "get_notes"}
FULL_BUDGET = 3000
CORE_BUDGET = 1200


def listing_tokens(tools) -> int:
    return estimate_json_tokens(
        {"tools": [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]}
    )


def test_all_tools_are_listed_with_their_annotations(mcp, cast):
    tools = {t.name: t for t in mcp.list_tools(cast.key(cast.member))}
    assert len(READ_TOOLS | WRITE_TOOLS) == 20
    assert set(tools) == READ_TOOLS | WRITE_TOOLS
    for name in READ_TOOLS:
        assert tools[name].annotations.read_only_hint is True, name
    for name in WRITE_TOOLS:
        assert tools[name].annotations.read_only_hint is False, name
    assert tools["delete_note"].annotations.destructive_hint is True
    assert tools["remember"].annotations.destructive_hint is not True
    # The wire names are the MCP camelCase ones.
    dumped = tools["get_notes"].model_dump(mode="json", by_alias=True, exclude_none=True)
    assert dumped["annotations"]["readOnlyHint"] is True
    assert "ids" in dumped["inputSchema"]["required"]


def test_descriptions_are_instructions(mcp, cast):
    tools = {t.name: t for t in mcp.list_tools(cast.key(cast.member))}
    for name, listed in tools.items():
        assert listed.description, name
        assert listed.description[0].isupper(), name
    assert tools["get_context"].description.startswith("START HERE")
    assert tools["get_changes_since"].description.startswith("RESUME AFTER")


def test_the_listing_stays_small_and_core_lists_the_core_set(mcp, mcp_url, cast):
    key = cast.key(cast.member)
    full = mcp.list_tools(key)
    core = mcp.list_tools(key, url=mcp_url + "?toolset=core")
    assert {t.name for t in core} == CORE_TOOLS
    full_tokens, core_tokens = listing_tokens(full), listing_tokens(core)
    print(f"\ntools/list: full set {full_tokens} tokens, core set {core_tokens} tokens")
    assert full_tokens <= FULL_BUDGET
    assert core_tokens <= CORE_BUDGET


def test_an_unknown_tool_is_an_invalid_argument_result(local_mcp, cast):
    result = local_mcp.call(cast.key(cast.member), "drop_database", {})
    assert result.is_error
    assert result.structured_content["error"]["code"] == "invalid_argument"
    assert "tools/list" in result.structured_content["error"]["message"]
