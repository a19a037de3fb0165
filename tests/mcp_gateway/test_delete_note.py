from __future__ import annotations

from memory.models import Note
from tests.mcp_gateway.state import db_state, save, text_matches_structured


def test_soft_deletes_a_note(mcp, cast):
    note_id = save(cast, "Wrong", "This was never true.")
    key = cast.key(cast.member)
    result = mcp.call(key, "delete_note", {"id": note_id, "reason": "never true"})
    assert not result.is_error, result.structured_content
    assert text_matches_structured(result)
    outcome = result.structured_content
    assert outcome["status"] == "deleted"
    assert (outcome["note"]["id"], outcome["note"]["version"]) == (note_id, 2)
    assert outcome["note"]["deleted_at"]
    # Soft: the row stays, restorable, and shows in the change stream as deleted.
    stored = Note.objects.get(public_id=note_id)
    assert stored.deleted_at is not None
    assert stored.delete_reason == "never true"
    assert mcp.ok(key, "get_notes", {"ids": [note_id]})["missing"] == [note_id]
    changes = mcp.ok(key, "get_changes_since", {"project": "payments"})["changes"]
    assert [(c["id"], c["change"]) for c in changes] == [(note_id, "deleted")]


def test_a_deleted_note_cannot_be_deleted_again(local_mcp, cast):
    note_id = save(cast, "Wrong", "This was never true.")
    key = cast.key(cast.member)
    local_mcp.ok(key, "delete_note", {"id": note_id})
    before = db_state()
    assert local_mcp.error(key, "delete_note", {"id": note_id})["code"] == "not_found"
    assert db_state() == before


def test_read_only_callers_are_forbidden(local_mcp, cast):
    note_id = save(cast, "Keep", "Still true.")
    before = db_state()
    for key in (cast.key(cast.viewer), cast.key(cast.member, read_only=True)):
        error = local_mcp.error(key, "delete_note", {"id": note_id})
        assert error["code"] == "forbidden"
    assert db_state() == before


def test_out_of_scope_is_not_found(local_mcp, cast):
    note_id = save(cast, "Keep", "Still true.")
    private = save(cast, "Mine", "Private.", user=cast.owner, visibility="private")
    before = db_state()
    cases = [
        (cast.key(cast.outsider), note_id),
        (cast.key(cast.member, project=cast.website), note_id),
        (cast.key(cast.member), private),
    ]
    for key, target in cases:
        error = local_mcp.error(key, "delete_note", {"id": target})
        assert error["code"] == "not_found", target
        assert target in error["message"]
    assert db_state() == before


def test_bad_input_is_invalid_argument(local_mcp, cast):
    note_id = save(cast, "Keep", "Still true.")
    before = db_state()
    key = cast.key(cast.member)
    for arguments in [
        {},
        {"id": ""},
        {"id": 17},
        {"id": [note_id]},
        {"id": note_id, "reason": "x" * 301},
        {"id": note_id, "reason": 5},
        {"id": note_id, "hard": True},
    ]:
        result = local_mcp.call(key, "delete_note", arguments)
        assert result.is_error, arguments
        assert result.structured_content["error"]["code"] == "invalid_argument", arguments
    assert db_state() == before
