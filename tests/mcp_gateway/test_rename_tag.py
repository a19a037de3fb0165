from __future__ import annotations

from memory.models import Note
from tests.mcp_gateway.state import db_state, save, text_matches_structured


def tags_of(note_id: str) -> list[str]:
    return list(Note.objects.get(public_id=note_id).tags)


def test_renames_and_merges_a_tag_across_the_project(mcp, cast):
    one = save(cast, "One", "First.", tags=["auth", "api"])
    both = save(cast, "Both", "Second.", tags=["authn", "auth"])
    other = save(cast, "Other", "Third.", tags=["billing"])
    elsewhere = save(cast, "Website", "Fourth.", tags=["auth"], project="website")
    result = mcp.call(
        cast.key(cast.member), "rename_tag", {"project": "payments", "old": "auth", "new": "authn"}
    )
    assert not result.is_error, result.structured_content
    assert text_matches_structured(result)
    assert result.structured_content == {
        "project": "payments",
        "old": "auth",
        "new": "authn",
        "notes_updated": 2,
    }
    assert tags_of(one) == ["authn", "api"]
    assert tags_of(both) == ["authn"]
    assert tags_of(other) == ["billing"]
    assert tags_of(elsewhere) == ["auth"]
    # Each renamed note got a new version with its old tags kept as a revision.
    assert Note.objects.get(public_id=one).version == 2


def test_read_only_callers_are_forbidden(local_mcp, cast):
    save(cast, "One", "First.", tags=["auth"])
    before = db_state()
    for key in (cast.key(cast.viewer), cast.key(cast.member, read_only=True)):
        error = local_mcp.error(key, "rename_tag", {"project": "payments", "old": "auth", "new": "authn"})
        assert error["code"] == "forbidden"
    assert db_state() == before


def test_out_of_scope_is_not_found(local_mcp, cast):
    save(cast, "One", "First.", tags=["auth"])
    before = db_state()
    for key in (cast.key(cast.outsider), cast.key(cast.member, project=cast.website)):
        error = local_mcp.error(key, "rename_tag", {"project": "payments", "old": "auth", "new": "authn"})
        assert error["code"] == "not_found"
    assert db_state() == before


def test_bad_input_is_invalid_argument(local_mcp, cast):
    save(cast, "One", "First.", tags=["auth"])
    before = db_state()
    key = cast.key(cast.member)
    for arguments in [
        {},
        {"project": "payments", "old": "auth"},
        {"project": "payments", "old": "auth", "new": "auth"},
        {"project": "payments", "old": "", "new": "authn"},
        {"project": "payments", "old": "auth", "new": ""},
        {"project": "payments", "old": "auth", "new": "bad tag!"},
        {"project": "payments", "old": "auth", "new": "x" * 65},
        {"project": "payments", "old": ["auth"], "new": "authn"},
        {"project": "payments", "old": "auth", "new": "authn", "dry_run": True},
    ]:
        result = local_mcp.call(key, "rename_tag", arguments)
        assert result.is_error, arguments
        assert result.structured_content["error"]["code"] == "invalid_argument", arguments
    assert db_state() == before
