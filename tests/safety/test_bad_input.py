"""Bad input gives a clear invalid_argument, never `internal`: a NUL character in
any string, a time outside the years the server stores, values at the limits; and no error message
repeats a huge argument back."""

from __future__ import annotations

import pytest

from accounts.errors import InvalidArgument, NotFound, StoreError
from memory import store
from memory.models import Note, Project
from tests.mcp_gateway.state import db_state, save

NUL = "\x00"
BIG = "x" * 100_000

# Every string argument kind an MCP tool takes, each with a NUL character in it.
MCP_CALLS = [
    ("remember", {"project": "payments", "content": f"Retries are capped{NUL}"}, "content"),
    ("remember", {"project": "payments", "content": "ok", "title": f"T{NUL}"}, "title"),
    ("remember", {"project": f"pay{NUL}ments", "content": "ok"}, "project"),
    ("remember", {"project": "payments", "content": "ok", "source": f"cli{NUL}"}, "source"),
    ("remember", {"project": "payments", "content": "ok", "idempotency_key": f"k{NUL}1"}, "idempotency_key"),
    ("remember", {"project": "payments", "content": "ok", "tags": ["fine", f"t{NUL}"]}, "tags[1]"),
    ("remember", {"project": "payments", "content": "ok", "supersedes": [f"n_{NUL}"]}, "supersedes[0]"),
    ("save_note", {"project": "payments", "title": "T", "body": f"B{NUL}"}, "body"),
    ("save_note", {"id": f"n_{NUL}abc", "body": "B"}, "id"),
    ("patch_note", {"id": "{note}", "op": "replace", "find": f"a{NUL}", "text": "b"}, "find"),
    ("get_notes", {"ids": [f"n_{NUL}"]}, "ids[0]"),
    ("search_notes", {"query": f"retries{NUL}"}, "query"),
    ("get_context", {"project": "payments", "query": f"q{NUL}"}, "query"),
    ("create_project", {"name": f"Mobile{NUL}"}, "name"),
    ("rename_project", {"project": "payments", "name": f"P{NUL}"}, "name"),
    ("rename_tag", {"project": "payments", "old": "a", "new": f"b{NUL}"}, "new"),
    ("checkpoint", {"project": "payments", "summary": "ok", "decisions": [f"d{NUL}"]}, "decisions[0]"),
    ("get_changes_since", {"project": "payments", "cursor": f"c{NUL}"}, "cursor"),
    ("get_changes_since", {"project": "payments", "since": f"2026-01-01T00:00:00Z{NUL}"}, "since"),
    ("delete_note", {"id": "{note}", "reason": f"r{NUL}"}, "reason"),
]


@pytest.mark.parametrize(("tool", "arguments", "field"), MCP_CALLS, ids=[f"{c[0]}-{c[2]}" for c in MCP_CALLS])
def test_a_nul_character_in_any_argument_is_invalid_argument(local_mcp, cast, tool, arguments, field):
    note_id = save(cast, "Original", "original text a")
    arguments = {k: note_id if v == "{note}" else v for k, v in arguments.items()}
    before = db_state()
    error = local_mcp.error(cast.key(cast.owner), tool, arguments)
    assert error["code"] == "invalid_argument"
    assert f"`{field}` contains a NUL character" in error["message"]
    assert db_state() == before


@pytest.mark.parametrize("since", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"])
def test_a_since_outside_the_stored_years_is_invalid_argument(local_mcp, cast, since):
    error = local_mcp.error(
        cast.key(cast.member), "get_changes_since", {"project": "payments", "since": since}
    )
    assert error["code"] == "invalid_argument"
    assert "outside the years 1 to 9999" in error["message"]


def test_the_earliest_and_latest_times_in_utc_are_accepted(local_mcp, cast):
    save(cast, "Original", "original text")
    for since in ("0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z"):
        local_mcp.ok(cast.key(cast.member), "get_changes_since", {"project": "payments", "since": since})


def test_nested_nul_in_an_import_document_is_invalid_argument(cast):
    with pytest.raises(InvalidArgument) as refused:
        store.import_project(
            cast.principal(cast.owner), {"format": "knownbase-export", "notes": [{"body": NUL}]}
        )
    assert "`document.notes[0].body` contains a NUL character" in refused.value.message
    assert not Project.objects.filter(slug="imported").exists()


def test_a_nul_character_in_the_client_name_is_invalid_argument_not_internal(cast):
    principal = cast.principal(cast.member).with_client(f"agent{NUL}")
    with pytest.raises(InvalidArgument):
        store.remember(principal, "payments", "Refunds settle in two days")
    assert not Note.objects.exists()


BIG_ARGUMENTS = [
    ("get_context", lambda p: store.get_context(p, BIG)),
    ("remember", lambda p: store.remember(p, BIG, "content")),
    ("list_notes", lambda p: store.list_notes(p, BIG)),
    ("get_changes_since project", lambda p: store.get_changes_since(p, BIG)),
    ("get_changes_since since", lambda p: store.get_changes_since(p, "payments", since=BIG)),
    ("export_project", lambda p: store.export_project(p, BIG)),
    ("delete_screening_rule", lambda p: store.delete_screening_rule(p, BIG)),
    ("get_notes", lambda p: store.get_notes(p, [BIG])),
    ("note id", lambda p: store.update_note(p, BIG, body="b")),
    ("list_audit_events", lambda p: store.list_audit_events(p, before=BIG)),
    ("rename_tag", lambda p: store.rename_tag(p, "payments", BIG, "b")),
    ("search_notes", lambda p: store.search_notes(p, BIG)),
]


@pytest.mark.parametrize("call", [c[1] for c in BIG_ARGUMENTS], ids=[c[0] for c in BIG_ARGUMENTS])
def test_no_error_message_repeats_a_huge_argument(cast, call):
    with pytest.raises(StoreError) as refused:
        call(cast.principal(cast.owner))
    assert isinstance(refused.value, InvalidArgument | NotFound)
    assert len(refused.value.message) < 400


def test_a_slug_and_a_tag_at_their_limits_are_stored(local_mcp, cast):
    # Both were written to the audit row's 40-character object id, and failed as `internal`.
    key = cast.key(cast.owner)
    name = "Quarterly reconciliation of the merchant settlement ledger"
    project = local_mcp.ok(key, "create_project", {"name": name})["project"]
    assert project["slug"] == "quarterly-reconciliation-of-the-merchant-settlement-ledger"
    save(cast, "Tagged", "tagged body", tags=["legacy"])
    tag = "t" * 64
    renamed = local_mcp.ok(key, "rename_tag", {"project": "payments", "old": "legacy", "new": tag})
    assert (renamed["new"], renamed["notes_updated"]) == (tag, 1)
