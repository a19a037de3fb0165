from __future__ import annotations

from typing import Any

from memory.models import Note, NoteType
from tests.mcp_gateway.state import db_state, save, text_matches_structured

FULL: dict[str, Any] = {
    "project": "payments",
    "summary": "Wired up Stripe webhooks for refunds.",
    "decisions": ["Refund webhooks are processed by a Celery task, never inline."],
    "open_items": ["Partial refunds are not handled yet."],
    "failed_approaches": ["Polling the Stripe API for refund status hit the rate limit."],
    "next_actions": ["Write the partial refund handler."],
}


def test_stores_a_handoff_and_one_typed_note_per_item(mcp, cast):
    result = mcp.call(cast.key(cast.member), "checkpoint", FULL)
    assert not result.is_error, result.structured_content
    assert text_matches_structured(result)
    outcome = result.structured_content
    handoff = Note.objects.get(public_id=outcome["handoff"]["id"])
    assert handoff.type == NoteType.HANDOFF
    assert (handoff.project_id, handoff.author_id) == (cast.payments.pk, cast.member.pk)
    for text in (FULL["summary"], *FULL["decisions"], *FULL["open_items"], *FULL["next_actions"]):
        assert text in handoff.body
    assert [(i["kind"], i["status"]) for i in outcome["items"]] == [
        ("decisions", "created"),
        ("open_items", "created"),
        ("failed_approaches", "created"),
    ]
    types = {i["kind"]: Note.objects.get(public_id=i["id"]).type for i in outcome["items"]}
    assert types == {
        "decisions": NoteType.DECISION,
        "open_items": NoteType.TASK,
        "failed_approaches": NoteType.FAILED_APPROACH,
    }
    # Next actions live in the handoff only.
    assert Note.objects.count() == 4


def test_items_go_through_remember(local_mcp, cast):
    existing = save(cast, "Celery", FULL["decisions"][0], type="decision")
    outcome = local_mcp.ok(cast.key(cast.member), "checkpoint", {**FULL, "open_items": None})
    assert outcome["items"] == [
        {"kind": "decisions", "status": "duplicate", "id": existing},
        {"kind": "failed_approaches", "status": "created", "id": outcome["items"][1]["id"]},
    ]


def test_retry_with_the_idempotency_key_writes_nothing(local_mcp, cast):
    key = cast.key(cast.member)
    first = local_mcp.ok(key, "checkpoint", {**FULL, "idempotency_key": "session-42"})
    before = db_state()
    assert local_mcp.ok(key, "checkpoint", {**FULL, "idempotency_key": "session-42"}) == first
    assert db_state() == before


def test_read_only_callers_are_forbidden(local_mcp, cast):
    for key in (cast.key(cast.viewer), cast.key(cast.member, read_only=True)):
        error = local_mcp.error(key, "checkpoint", FULL)
        assert error["code"] == "forbidden"
    assert not Note.objects.exists()


def test_a_project_out_of_scope_is_not_found(local_mcp, cast):
    for key in (cast.key(cast.outsider), cast.key(cast.member, project=cast.website)):
        error = local_mcp.error(key, "checkpoint", FULL)
        assert error["code"] == "not_found"
    assert not Note.objects.exists()


def test_bad_input_is_invalid_argument(local_mcp, cast):
    key = cast.key(cast.member)
    for arguments in [
        {},
        {"project": "payments"},
        {"project": "payments", "summary": ""},
        {"project": "payments", "summary": 3},
        {"project": "payments", "summary": "Done.", "decisions": "one decision"},
        {"project": "payments", "summary": "Done.", "decisions": [""]},
        {"project": "payments", "summary": "Done.", "open_items": [7]},
        {"project": "payments", "summary": "Done.", "next_actions": ["x"] * 31},
        {"project": "payments", "summary": "Done.", "idempotency_key": "k" * 201},
        {"project": "payments", "summary": "Done.", "mood": "happy"},
    ]:
        result = local_mcp.call(key, "checkpoint", arguments)
        assert result.is_error, arguments
        assert result.structured_content["error"]["code"] == "invalid_argument", arguments
    assert not Note.objects.exists()
