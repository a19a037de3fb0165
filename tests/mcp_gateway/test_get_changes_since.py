from __future__ import annotations

from memory import store
from memory.recall.tokens import estimate_json_tokens
from tests.mcp_gateway.state import save, text_matches_structured

CHANGE_FIELDS = {
    "id",
    "change",
    "version",
    "type",
    "status",
    "title",
    "excerpt",
    "body_chars",
    "updated_at",
}


def test_pages_oldest_first_with_the_cursor(mcp, cast):
    ids = [save(cast, f"Note {n}", f"Body of note {n}.") for n in range(3)]
    key = cast.key(cast.member)
    first = mcp.call(key, "get_changes_since", {"project": "payments", "limit": 2})
    assert not first.is_error, first.structured_content
    assert text_matches_structured(first)
    page = first.structured_content
    assert set(page) == {"changes", "has_more", "cursor"}
    assert [c["id"] for c in page["changes"]] == ids[:2]
    assert all(set(c) == CHANGE_FIELDS for c in page["changes"])
    assert page["changes"][0]["change"] == "created"
    assert page["changes"][0]["body_chars"] == len("Body of note 0.")
    assert page["has_more"] is True

    second = mcp.ok(key, "get_changes_since", {"project": "payments", "cursor": page["cursor"], "limit": 2})
    assert [c["id"] for c in second["changes"]] == ids[2:]
    assert second["has_more"] is False

    # The last cursor is kept: nothing new, nothing repeated.
    third = mcp.ok(key, "get_changes_since", {"project": "payments", "cursor": second["cursor"]})
    assert (third["changes"], third["has_more"]) == ([], False)


def test_updates_and_deletes_after_the_cursor(local_mcp, cast):
    kept, gone = save(cast, "Kept", "Kept body."), save(cast, "Gone", "Gone body.")
    key = cast.key(cast.member)
    cursor = local_mcp.ok(key, "get_changes_since", {"project": "payments"})["cursor"]
    principal = cast.principal(cast.member)
    store.patch_note(principal, kept, "append", "More.")
    store.delete_note(principal, gone)
    since_start = local_mcp.ok(
        key, "get_changes_since", {"project": "payments", "since": "2000-01-01T00:00:00Z"}
    )
    assert {c["id"] for c in since_start["changes"]} == {kept, gone}
    changes = local_mcp.ok(key, "get_changes_since", {"project": "payments", "cursor": cursor})["changes"]
    assert [(c["id"], c["change"], c["version"]) for c in changes] == [
        (kept, "updated", 2),
        (gone, "deleted", 2),
    ]


def test_max_tokens_bounds_the_page(local_mcp, cast):
    for n in range(5):
        save(cast, f"Note {n}", f"A fairly long body for note {n}. " * 20)
    key = cast.key(cast.member)
    page = local_mcp.ok(key, "get_changes_since", {"project": "payments", "max_tokens": 300})
    assert 1 <= len(page["changes"]) < 5
    assert page["has_more"] is True
    assert estimate_json_tokens(page) <= 300


def test_a_cursor_cannot_change_the_question(local_mcp, cast):
    save(cast, "Payments note", "Body.")
    save(cast, "Website note", "Body.", project="website")
    key = cast.key(cast.member)
    cursor = local_mcp.ok(key, "get_changes_since", {"project": "payments", "types": ["decision"]})["cursor"]
    tampered = cursor[:-3] + ("AAA" if not cursor.endswith("AAA") else "BBB")
    for arguments in [
        {"project": "payments", "cursor": cursor, "types": ["note"]},
        {"project": "website", "cursor": cursor},
        {"project": "payments", "cursor": tampered},
    ]:
        error = local_mcp.error(key, "get_changes_since", arguments)
        assert error["code"] == "invalid_argument", arguments
    # Changing only the page size is allowed.
    assert local_mcp.ok(key, "get_changes_since", {"project": "payments", "cursor": cursor, "limit": 5})


def test_read_only_key_may_read(local_mcp, cast):
    note = save(cast, "A note", "Body.")
    for key in (cast.key(cast.member, read_only=True), cast.key(cast.viewer)):
        changes = local_mcp.ok(key, "get_changes_since", {"project": "payments"})["changes"]
        assert [c["id"] for c in changes] == [note]


def test_a_project_out_of_scope_is_not_found(local_mcp, cast):
    save(cast, "A note", "Body.")
    cursor = local_mcp.ok(cast.key(cast.member), "get_changes_since", {"project": "payments"})["cursor"]
    for key in (cast.key(cast.outsider), cast.key(cast.member, project=cast.website)):
        for arguments in ({"project": "payments"}, {"project": "payments", "cursor": cursor}):
            error = local_mcp.error(key, "get_changes_since", arguments)
            assert error["code"] == "not_found", arguments


def test_bad_input_is_invalid_argument(local_mcp, cast):
    key = cast.key(cast.member)
    for arguments in [
        {},
        {"project": ""},
        {"project": ["payments"]},
        {"project": "payments", "limit": 0},
        {"project": "payments", "limit": 201},
        {"project": "payments", "limit": "many"},
        {"project": "payments", "max_tokens": 0},
        {"project": "payments", "since": "yesterday"},
        {"project": "payments", "since": "2026-01-01T00:00:00"},
        {"project": "payments", "since": "2026-01-01T00:00:00Z", "cursor": "abc"},
        {"project": "payments", "cursor": "made-up"},
        {"project": "payments", "statuses": ["finished"]},
        {"project": "payments", "page": 2},
    ]:
        result = local_mcp.call(key, "get_changes_since", arguments)
        assert result.is_error, arguments
        assert result.structured_content["error"]["code"] == "invalid_argument", arguments
