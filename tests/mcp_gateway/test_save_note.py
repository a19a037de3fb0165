from __future__ import annotations

from memory.models import Note, NoteRevision
from tests.mcp_gateway.state import NOTE_FIELDS, db_state, save, text_matches_structured


def test_creates_a_note(mcp, cast):
    result = mcp.call(
        cast.key(cast.member),
        "save_note",
        {
            "project": "payments",
            "title": "Webhook secret",
            "body": "The webhook secret lives in Vault.",
            "type": "fact",
            "tags": ["stripe", "secrets"],
            "importance": 0.9,
        },
    )
    assert not result.is_error, result.structured_content
    assert text_matches_structured(result)
    note = result.structured_content["note"]
    assert set(note) >= NOTE_FIELDS | {"body"}
    assert note["id"].startswith("n_")
    assert {k: note[k] for k in ("project", "type", "status", "title", "version", "tags", "importance")} == {
        "project": "payments",
        "type": "fact",
        "status": "current",
        "title": "Webhook secret",
        "version": 1,
        "tags": ["stripe", "secrets"],
        "importance": 0.9,
    }
    stored = Note.objects.get(public_id=note["id"])
    assert (stored.body, stored.author_id) == ("The webhook secret lives in Vault.", cast.member.pk)


def test_updates_a_note_and_keeps_a_revision(local_mcp, cast):
    note_id = save(cast, "Webhook secret", "In the env file.")
    note = local_mcp.ok(
        cast.key(cast.owner),
        "save_note",
        {"id": note_id, "body": "In Vault.", "status": "current", "expected_version": 1},
    )["note"]
    assert (note["id"], note["version"], note["body"], note["title"]) == (
        note_id,
        2,
        "In Vault.",
        "Webhook secret",
    )
    revision = NoteRevision.objects.get(note__public_id=note_id)
    assert (revision.version, revision.body) == (1, "In the env file.")


def test_stale_expected_version_is_a_version_conflict(local_mcp, cast):
    note_id = save(cast, "Webhook secret", "In the env file.")
    local_mcp.ok(cast.key(cast.member), "save_note", {"id": note_id, "title": "Secret location"})
    before = db_state()
    error = local_mcp.error(
        cast.key(cast.member), "save_note", {"id": note_id, "body": "x", "expected_version": 1}
    )
    assert error["code"] == "version_conflict"
    assert "2" in error["message"]
    assert db_state() == before


def test_read_only_callers_are_forbidden(local_mcp, cast):
    note_id = save(cast, "Webhook secret", "In the env file.")
    before = db_state()
    for key in (cast.key(cast.viewer), cast.key(cast.member, read_only=True)):
        for arguments in (
            {"project": "payments", "title": "New", "body": "Body."},
            {"id": note_id, "body": "Changed."},
        ):
            error = local_mcp.error(key, "save_note", arguments)
            assert error["code"] == "forbidden", arguments
    assert db_state() == before


def test_out_of_scope_is_not_found(local_mcp, cast):
    note_id = save(cast, "Webhook secret", "In the env file.")
    private = save(cast, "Mine", "Private.", user=cast.owner, visibility="private")
    before = db_state()
    cases = [
        (cast.key(cast.outsider), {"id": note_id, "body": "Changed."}),
        (cast.key(cast.outsider), {"project": "payments", "title": "New", "body": "Body."}),
        (cast.key(cast.member, project=cast.website), {"id": note_id, "body": "Changed."}),
        (cast.key(cast.member, project=cast.website), {"project": "payments", "title": "T", "body": "B."}),
        (cast.key(cast.member), {"id": private, "body": "Changed."}),
    ]
    for key, arguments in cases:
        error = local_mcp.error(key, "save_note", arguments)
        assert error["code"] == "not_found", arguments
    assert db_state() == before


def test_bad_input_is_invalid_argument(local_mcp, cast):
    note_id = save(cast, "Webhook secret", "In the env file.")
    before = db_state()
    key = cast.key(cast.member)
    for arguments in [
        {},
        {"id": note_id, "project": "payments", "title": "Both"},
        {"project": "payments", "body": "No title."},
        {"project": "payments", "title": "", "body": "Empty title."},
        {"project": "payments", "title": "No body"},
        {"project": "payments", "title": "T", "body": "B.", "expected_version": 1},
        {"id": note_id},
        {"id": note_id, "title": ""},
        {"id": note_id, "title": "x" * 301},
        {"id": note_id, "importance": 1.5},
        {"id": note_id, "status": "done"},
        {"id": note_id, "type": "rumour"},
        {"id": note_id, "visibility": "public"},
        {"id": note_id, "body": "B.", "expected_version": 0},
        {"id": 12, "body": "B."},
        {"id": note_id, "body": "B.", "color": "red"},
    ]:
        result = local_mcp.call(key, "save_note", arguments)
        assert result.is_error, arguments
        assert result.structured_content["error"]["code"] == "invalid_argument", arguments
    assert db_state() == before
