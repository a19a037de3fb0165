from __future__ import annotations

from tests.mcp_gateway.state import db_state, edit, save, text_matches_structured


def test_lists_earlier_versions_newest_first(mcp, cast):
    note_id = save(cast, "Retries", "Three retries.")
    edit(cast, note_id, body="Five retries.")
    edit(cast, note_id, title="Retry policy")
    key = cast.key(cast.member)
    result = mcp.call(key, "list_note_revisions", {"id": note_id})
    assert not result.is_error, result.structured_content
    assert text_matches_structured(result)
    revisions = result.structured_content["revisions"]
    assert [(r["version"], r["title"], r["body_chars"]) for r in revisions] == [
        (2, "Retries", len("Five retries.")),
        (1, "Retries", len("Three retries.")),
    ]
    assert all(set(r) == {"version", "title", "body_chars", "edited_by", "created_at"} for r in revisions)
    assert revisions[0]["edited_by"] == "mia@acme.test"

    newest = mcp.ok(key, "list_note_revisions", {"id": note_id, "limit": 1, "include_body": True})
    assert [(r["version"], r["body"]) for r in newest["revisions"]] == [(2, "Five retries.")]


def test_a_new_note_has_no_revisions(local_mcp, cast):
    note_id = save(cast, "Retries", "Three retries.")
    assert local_mcp.ok(cast.key(cast.member), "list_note_revisions", {"id": note_id})["revisions"] == []


def test_read_only_callers_may_read(local_mcp, cast):
    note_id = save(cast, "Retries", "Three retries.")
    edit(cast, note_id, body="Five retries.")
    for key in (cast.key(cast.member, read_only=True), cast.key(cast.viewer)):
        revisions = local_mcp.ok(key, "list_note_revisions", {"id": note_id})["revisions"]
        assert [r["version"] for r in revisions] == [1]


def test_out_of_scope_is_not_found(local_mcp, cast):
    note_id = save(cast, "Retries", "Three retries.")
    edit(cast, note_id, body="Five retries.")
    private = save(cast, "Mine", "Private.", user=cast.owner, visibility="private")
    before = db_state()
    cases = [
        (cast.key(cast.outsider), note_id),
        (cast.key(cast.member, project=cast.website), note_id),
        (cast.key(cast.member), private),
        (cast.key(cast.member), "n_doesnotexist"),
    ]
    for key, target in cases:
        error = local_mcp.error(key, "list_note_revisions", {"id": target})
        assert error["code"] == "not_found", target
    assert db_state() == before


def test_bad_input_is_invalid_argument(local_mcp, cast):
    note_id = save(cast, "Retries", "Three retries.")
    key = cast.key(cast.member)
    for arguments in [
        {},
        {"id": ""},
        {"id": 3},
        {"id": note_id, "limit": 0},
        {"id": note_id, "limit": 101},
        {"id": note_id, "limit": "all"},
        {"id": note_id, "include_body": "maybe"},
        {"id": note_id, "since_version": 1},
    ]:
        result = local_mcp.call(key, "list_note_revisions", arguments)
        assert result.is_error, arguments
        assert result.structured_content["error"]["code"] == "invalid_argument", arguments
