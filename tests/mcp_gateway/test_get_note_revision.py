from __future__ import annotations

from tests.mcp_gateway.state import db_state, edit, save, text_matches_structured


def test_reads_an_earlier_version_in_full(mcp, cast):
    note_id = save(cast, "Retries", "Three retries.", tags=["webhooks"], type="fact")
    edit(cast, note_id, body="Five retries.", tags=["stripe"])
    key = cast.key(cast.member)
    result = mcp.call(key, "get_note_revision", {"id": note_id, "version": 1})
    assert not result.is_error, result.structured_content
    assert text_matches_structured(result)
    revision = result.structured_content["revision"]
    assert {k: revision[k] for k in ("id", "version", "current", "type", "title", "body", "tags")} == {
        "id": note_id,
        "version": 1,
        "current": False,
        "type": "fact",
        "title": "Retries",
        "body": "Three retries.",
        "tags": ["webhooks"],
    }
    assert revision["edited_by"] == "mia@acme.test"
    assert revision["created_at"].endswith("Z")


def test_the_current_version_is_readable_too(local_mcp, cast):
    note_id = save(cast, "Retries", "Three retries.")
    edit(cast, note_id, body="Five retries.")
    revision = local_mcp.ok(cast.key(cast.member), "get_note_revision", {"id": note_id, "version": 2})[
        "revision"
    ]
    assert (revision["current"], revision["body"]) == (True, "Five retries.")


def test_an_unknown_version_is_not_found(local_mcp, cast):
    note_id = save(cast, "Retries", "Three retries.")
    error = local_mcp.error(cast.key(cast.member), "get_note_revision", {"id": note_id, "version": 7})
    assert error["code"] == "not_found"
    assert "List the note's revisions" in error["message"]  # an operation, not a tool name


def test_read_only_callers_may_read(local_mcp, cast):
    note_id = save(cast, "Retries", "Three retries.")
    edit(cast, note_id, body="Five retries.")
    for key in (cast.key(cast.member, read_only=True), cast.key(cast.viewer)):
        revision = local_mcp.ok(key, "get_note_revision", {"id": note_id, "version": 1})["revision"]
        assert revision["body"] == "Three retries."


def test_out_of_scope_is_not_found(local_mcp, cast):
    note_id = save(cast, "Retries", "Three retries.")
    edit(cast, note_id, body="Five retries.")
    before = db_state()
    for key in (cast.key(cast.outsider), cast.key(cast.member, project=cast.website)):
        error = local_mcp.error(key, "get_note_revision", {"id": note_id, "version": 1})
        assert error["code"] == "not_found"
        assert "Three" not in error["message"]
    assert db_state() == before


def test_bad_input_is_invalid_argument(local_mcp, cast):
    note_id = save(cast, "Retries", "Three retries.")
    key = cast.key(cast.member)
    for arguments in [
        {},
        {"id": note_id},
        {"version": 1},
        {"id": "", "version": 1},
        {"id": note_id, "version": 0},
        {"id": note_id, "version": -1},
        {"id": note_id, "version": "first"},
        {"id": note_id, "version": 1.5},
        {"id": note_id, "version": 1, "diff": True},
    ]:
        result = local_mcp.call(key, "get_note_revision", arguments)
        assert result.is_error, arguments
        assert result.structured_content["error"]["code"] == "invalid_argument", arguments
