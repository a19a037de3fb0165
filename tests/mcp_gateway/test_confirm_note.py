"""confirm_note: a person or agent says a note flagged by a code change is still true; the flag clears,
the note's version and text stay, and callers who may not write or cannot see the note change nothing."""

from __future__ import annotations

from accounts.models import AuditEvent
from memory.models import Note
from tests.mcp_gateway.state import db_state, save

COMMIT = "9f2c1e4b7a"


def flagged_note(local_or_live, cast) -> str:
    note = save(cast, "Invoice rounding", "Invoice totals round half-even per line.", paths=["billing/**"])
    local_or_live.call(
        cast.key(cast.member),
        "report_code_change",
        {"project": "payments", "commit": COMMIT, "paths": ["billing/a.py"]},
    )
    assert Note.objects.get(public_id=note).review_flagged_at is not None
    return note


def test_confirming_clears_the_flag_over_http(mcp, cast):
    note = flagged_note(mcp, cast)
    version = Note.objects.get(public_id=note).version
    result = mcp.call(cast.key(cast.member), "confirm_note", {"id": note})
    assert not result.is_error, result.structured_content
    assert "needs_review" not in result.structured_content["note"]
    stored = Note.objects.get(public_id=note)
    assert stored.review_flagged_at is None and stored.version == version
    assert AuditEvent.objects.filter(action="note.confirmed", object_id=note).exists()


def test_a_note_without_a_flag_is_refused(local_mcp, cast):
    note = save(cast, "Deploys", "Deploys run on Tuesdays.")
    assert local_mcp.error(cast.key(cast.member), "confirm_note", {"id": note})["code"] == "invalid_argument"


def test_read_only_and_out_of_scope_callers_change_nothing(local_mcp, cast):
    note = flagged_note(local_mcp, cast)
    before = db_state()
    assert local_mcp.error(cast.key(cast.viewer), "confirm_note", {"id": note})["code"] in {
        "forbidden",
        "insufficient_scope",
    }
    assert local_mcp.error(cast.key(cast.outsider), "confirm_note", {"id": note})["code"] == "not_found"
    assert db_state() == before


def test_bad_ids_are_invalid_or_not_found(local_mcp, cast):
    key = cast.key(cast.member)
    assert local_mcp.error(key, "confirm_note", {"id": ""})["code"] == "invalid_argument"
    assert local_mcp.error(key, "confirm_note", {"id": "n_DoesNotExist0000"})["code"] == "not_found"
