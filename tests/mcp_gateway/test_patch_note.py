from __future__ import annotations

from memory.models import Note, NoteRevision
from tests.mcp_gateway.state import NOTE_FIELDS, db_state, save, text_matches_structured

BODY = "Retries: 3.\nBackoff: exponential."


def test_append_and_prepend(mcp, cast):
    note_id = save(cast, "Webhooks", BODY)
    key = cast.key(cast.member)
    result = mcp.call(key, "patch_note", {"id": note_id, "op": "append", "text": "Timeout: 10 s."})
    assert not result.is_error, result.structured_content
    assert text_matches_structured(result)
    note = result.structured_content["note"]
    assert set(note) >= NOTE_FIELDS | {"body"}
    assert (note["version"], note["body"]) == (2, BODY + "\n\nTimeout: 10 s.")
    note = mcp.ok(key, "patch_note", {"id": note_id, "op": "prepend", "text": "# Webhooks"})["note"]
    assert note["body"] == "# Webhooks\n\n" + BODY + "\n\nTimeout: 10 s."
    assert list(NoteRevision.objects.values_list("version", flat=True).order_by("version")) == [1, 2]


def test_replace_exact_text(local_mcp, cast):
    note_id = save(cast, "Webhooks", BODY)
    note = local_mcp.ok(
        cast.key(cast.member),
        "patch_note",
        {"id": note_id, "op": "replace", "find": "Retries: 3.", "text": "Retries: 5.", "expected_version": 1},
    )["note"]
    assert note["body"] == "Retries: 5.\nBackoff: exponential."
    assert Note.objects.get().body == note["body"]


def test_replace_of_absent_or_ambiguous_text_writes_nothing(local_mcp, cast):
    note_id = save(cast, "Webhooks", BODY + "\nRetries: 3.")
    before = db_state()
    key = cast.key(cast.member)
    for find in ("Retries: 4.", "Retries: 3."):
        error = local_mcp.error(
            key, "patch_note", {"id": note_id, "op": "replace", "find": find, "text": "x"}
        )
        assert error["code"] == "invalid_argument", find
        assert "nothing was changed" in error["message"]
    assert db_state() == before


def test_stale_expected_version_is_a_version_conflict(local_mcp, cast):
    note_id = save(cast, "Webhooks", BODY)
    key = cast.key(cast.member)
    local_mcp.ok(key, "patch_note", {"id": note_id, "op": "append", "text": "One."})
    before = db_state()
    error = local_mcp.error(
        key, "patch_note", {"id": note_id, "op": "append", "text": "Two.", "expected_version": 1}
    )
    assert error["code"] == "version_conflict"
    assert db_state() == before


def test_read_only_callers_are_forbidden(local_mcp, cast):
    note_id = save(cast, "Webhooks", BODY)
    before = db_state()
    for key in (cast.key(cast.viewer), cast.key(cast.member, read_only=True)):
        error = local_mcp.error(key, "patch_note", {"id": note_id, "op": "append", "text": "More."})
        assert error["code"] == "forbidden"
    assert db_state() == before


def test_out_of_scope_is_not_found(local_mcp, cast):
    note_id = save(cast, "Webhooks", BODY)
    before = db_state()
    for key in (cast.key(cast.outsider), cast.key(cast.member, project=cast.website)):
        error = local_mcp.error(key, "patch_note", {"id": note_id, "op": "append", "text": "More."})
        assert error["code"] == "not_found"
    assert db_state() == before


def test_bad_input_is_invalid_argument(local_mcp, cast):
    note_id = save(cast, "Webhooks", BODY)
    before = db_state()
    key = cast.key(cast.member)
    for arguments in [
        {},
        {"id": note_id, "text": "More."},
        {"id": note_id, "op": "delete", "text": "More."},
        {"id": note_id, "op": "append"},
        {"id": note_id, "op": "append", "text": 5},
        {"id": note_id, "op": "append", "text": "   "},
        {"id": note_id, "op": "append", "text": "x" * 50001},
        {"id": note_id, "op": "replace", "text": "Retries: 5."},
        {"id": note_id, "op": "replace", "find": "", "text": "Retries: 5."},
        {"id": note_id, "op": "append", "text": "More.", "find": "Retries"},
        {"id": note_id, "op": "append", "text": "More.", "expected_version": 0},
        {"id": "", "op": "append", "text": "More."},
        {"id": note_id, "op": "append", "text": "More.", "where": "end"},
    ]:
        result = local_mcp.call(key, "patch_note", arguments)
        assert result.is_error, arguments
        assert result.structured_content["error"]["code"] == "invalid_argument", arguments
    assert db_state() == before
