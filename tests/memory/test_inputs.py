"""One declaration of every input: the MCP schemas, the models, the store and the importer agree."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from pydantic import ValidationError

from accounts.errors import InvalidArgument
from mcp_gateway.server import build_server
from memory import inputs, store
from memory.models import LinkKind, NoteStatus, NoteType, Visibility
from memory.transfer import export_document
from memory.transfer.importing import import_document


@pytest.fixture(scope="module")
def schemas() -> dict[str, dict[str, Any]]:
    server = build_server(http=False)
    return {tool.name: tool.parameters["properties"] for tool in server._tool_manager.list_tools()}


def _prop(schema: dict[str, Any]) -> dict[str, Any]:
    return schema.get("items", schema) if schema.get("type") == "array" else schema


def test_tool_enums_are_the_model_choices(schemas):
    assert _prop(schemas["remember"]["type"])["enum"] == NoteType.values
    assert _prop(schemas["search_notes"]["statuses"])["enum"] == NoteStatus.values
    assert _prop(schemas["save_note"]["visibility"])["enum"] == Visibility.values
    assert _prop(schemas["relate_notes"]["kind"])["enum"] == LinkKind.values
    assert _prop(schemas["get_context"]["types"])["enum"] == list(inputs.NOTE_TYPES)


@pytest.mark.parametrize(
    ("tool", "argument", "limit", "sample"),
    [
        ("remember", "content", inputs.BODY.max_length, "x"),
        ("remember", "title", inputs.TITLE.max_length, "x"),
        ("remember", "source", inputs.SOURCE.max_length, "x"),
        ("remember", "tags", inputs.TAGS.max_items, ["t"]),
        ("delete_note", "reason", inputs.DELETE_REASON.max_length, "x"),
        ("create_project", "name", inputs.PROJECT_NAME.max_length, "x"),
        ("rename_tag", "new", inputs.TAG.max_length, "x"),
    ],
)
def test_tool_arguments_are_validated_at_the_declared_limits(tool, argument, limit, sample):
    # The published schema drops length limits to save tokens (mcp_gateway/schema.py); the
    # argument model the SDK validates with keeps them, taken from memory.inputs.
    registered = build_server(http=False)._tool_manager.get_tool(tool)
    assert registered is not None
    model = registered.fn_metadata.arg_model
    required = {"remember": {"project": "p", "content": "c"}, "delete_note": {"id": "n"}}.get(tool, {})
    base = {"create_project": {"name": "n"}, "rename_tag": {"project": "p", "old": "o", "new": "n"}}.get(
        tool, required
    )
    model.model_validate({**base, argument: sample * limit})
    with pytest.raises(ValidationError):
        model.model_validate({**base, argument: sample * (limit + 1)})


def _exported(cast) -> dict[str, Any]:
    principal = cast.principal(cast.member)
    store.remember(principal, "payments", "Refunds go through the ledger service.", tags=["ledger"])
    return export_document(principal, cast.payments)


@pytest.mark.parametrize(
    ("field", "value", "tools_refuse"),
    [
        ("body", "x" * (inputs.BODY.max_length + 1), True),
        ("tags", [f"t{i}" for i in range(inputs.TAGS.max_items + 1)], True),
        ("type", "memo", True),
        ("importance", 1.5, True),
        ("title", "t" * (inputs.TITLE.max_length + 1), True),
        # A tool normalises these ("not-a-tag", one "dup"); a document must already hold the stored form.
        ("tags", ["Not A Tag"], False),
        ("tags", ["dup", "dup"], False),
    ],
)
def test_the_importer_refuses_what_a_tool_would_not_store(cast, field, value, tools_refuse):
    document = copy.deepcopy(_exported(cast))
    document["notes"][0][field] = value
    with pytest.raises(InvalidArgument) as refused:
        import_document(cast.principal(cast.owner), document, slug="copy")
    assert field in refused.value.message
    if tools_refuse:
        args = {"body": "b", "title": "t", "tags": None, "type": None, "importance": None, field: value}
        with pytest.raises(InvalidArgument):
            store.create_note(cast.principal(cast.owner), "payments", **args)


def test_import_keeps_no_more_revisions_than_the_plan(cast):
    principal = cast.principal(cast.member)
    cast.plan.max_revisions_per_note = 2
    cast.plan.save()
    note_id = store.create_note(principal, "payments", "Counter", "0")["note"]["id"]
    for i in range(1, 5):
        store.update_note(principal, note_id, body=str(i))
    document = export_document(principal, cast.payments)
    assert len(document["notes"][0]["revisions"]) == 2  # edits already pruned to the cap
    document["notes"][0]["revisions"] += [
        dict(document["notes"][0]["revisions"][0], version=v) for v in (10, 11, 12)
    ]
    document["notes"][0]["version"] = 13
    result = import_document(cast.principal(cast.owner), document, slug="copy")
    assert result["imported"]["revisions"] == 2
