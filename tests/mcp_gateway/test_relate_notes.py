from __future__ import annotations

from memory.models import NoteLink
from tests.mcp_gateway.state import db_state, save, text_matches_structured


def test_creates_reports_and_removes_a_link(mcp, cast):
    api = save(cast, "API", "The payments API.")
    db = save(cast, "Database", "PostgreSQL 16.")
    key = cast.key(cast.member)
    arguments = {"from_id": api, "to_id": db, "kind": "depends_on"}
    result = mcp.call(key, "relate_notes", arguments)
    assert not result.is_error, result.structured_content
    assert text_matches_structured(result)
    assert result.structured_content == {
        "status": "created",
        "link": {"from_id": api, "to_id": db, "kind": "depends_on"},
    }
    link = NoteLink.objects.get()
    assert (link.from_note.public_id, link.to_note.public_id, link.kind) == (api, db, "depends_on")
    assert link.created_by_id == cast.member.pk

    assert mcp.ok(key, "relate_notes", arguments)["status"] == "exists"
    assert NoteLink.objects.count() == 1
    assert mcp.ok(key, "relate_notes", {**arguments, "remove": True})["status"] == "removed"
    assert not NoteLink.objects.exists()
    assert mcp.ok(key, "relate_notes", {**arguments, "remove": True})["status"] == "absent"


def test_read_only_callers_are_forbidden(local_mcp, cast):
    api = save(cast, "API", "The payments API.")
    db = save(cast, "Database", "PostgreSQL 16.")
    for key in (cast.key(cast.viewer), cast.key(cast.member, read_only=True)):
        error = local_mcp.error(key, "relate_notes", {"from_id": api, "to_id": db, "kind": "relates_to"})
        assert error["code"] == "forbidden"
    assert not NoteLink.objects.exists()


def test_out_of_scope_ids_are_not_found(local_mcp, cast):
    api = save(cast, "API", "The payments API.")
    db = save(cast, "Database", "PostgreSQL 16.")
    page = save(cast, "Landing page", "Marketing.", project="website")
    lab = save(cast, "Lab", "Secret.", user=cast.outsider, project="lab")
    before = db_state()
    cases = [
        (cast.key(cast.outsider), api, db),
        (cast.key(cast.outsider), lab, api),
        (cast.key(cast.member), api, lab),
        (cast.key(cast.member, project=cast.website), page, api),
    ]
    for key, from_id, to_id in cases:
        error = local_mcp.error(
            key, "relate_notes", {"from_id": from_id, "to_id": to_id, "kind": "relates_to"}
        )
        assert error["code"] == "not_found", (from_id, to_id)
    assert db_state() == before


def test_bad_input_is_invalid_argument(local_mcp, cast):
    api = save(cast, "API", "The payments API.")
    db = save(cast, "Database", "PostgreSQL 16.")
    key = cast.key(cast.member)
    for arguments in [
        {},
        {"from_id": api, "to_id": db},
        {"from_id": api, "to_id": db, "kind": "likes"},
        {"from_id": api, "to_id": api, "kind": "relates_to"},
        {"from_id": "", "to_id": db, "kind": "relates_to"},
        {"from_id": api, "to_id": 5, "kind": "relates_to"},
        {"from_id": api, "to_id": db, "kind": "relates_to", "remove": "maybe"},
        {"from_id": api, "to_id": db, "kind": "relates_to", "weight": 2},
    ]:
        result = local_mcp.call(key, "relate_notes", arguments)
        assert result.is_error, arguments
        assert result.structured_content["error"]["code"] == "invalid_argument", arguments
    assert not NoteLink.objects.exists()
