"""/api/v1 remember and checkpoint, and the Idempotency-Key header."""

from __future__ import annotations

from memory.models import IdempotencyRecord, Note, NoteType
from tests.mcp_gateway.state import db_state


def remember(api, content, headers=None, **fields):
    return api.post("/projects/payments/remember", {"content": content, **fields}, headers=headers)


def test_remember_created_then_duplicate(api):
    created = remember(api, "Refunds go through the ledger service, never Stripe directly.", type="decision")
    assert created.status == 201, created
    assert created.json["status"] == "created" and created.json["review_required"] is True
    duplicate = remember(api, "Refunds go through the ledger service, never Stripe directly.")
    assert duplicate.status == 200 and duplicate.json["status"] == "duplicate"
    assert duplicate.json["note"]["id"] == created.json["note"]["id"]
    assert Note.objects.count() == 1


def test_a_contradiction_is_409_conflict_with_the_resolutions(api):
    first = remember(api, "We use opaque tokens instead of JWTs for sessions.")
    before = db_state()
    conflict = remember(api, "We use JWTs instead of opaque tokens for sessions.")
    assert conflict.status == 409, conflict
    error = conflict.error
    assert error["code"] == "conflict" and first.json["note"]["id"] in error["message"]
    assert error["note"]["id"] == first.json["note"]["id"]
    assert error["resolve"] == {
        "supersede": {"supersedes": [first.json["note"]["id"]]},
        "keep_both": {"force": True},
    }
    assert db_state() == before
    forced = remember(api, "We use JWTs instead of opaque tokens for sessions.", force=True)
    assert forced.status == 201


def test_idempotency_key_replays_the_first_answer_and_writes_once(api):
    headers = {"Idempotency-Key": "ci-run-1"}
    first = remember(api, "Deploys happen on Tuesdays.", headers=headers)
    again = remember(api, "Deploys happen on Tuesdays.", headers=headers)
    assert (first.status, again.status) == (201, 201) and first.json == again.json
    assert Note.objects.count() == 1 and IdempotencyRecord.objects.count() == 1
    checkpoint = {"summary": "Moved deploys.", "decisions": ["Deploys are on Tuesdays from now on."]}
    one = api.post("/projects/payments/checkpoint", checkpoint, headers={"Idempotency-Key": "ci-run-2"})
    two = api.post("/projects/payments/checkpoint", checkpoint, headers={"Idempotency-Key": "ci-run-2"})
    assert one.json == two.json and Note.objects.filter(type=NoteType.HANDOFF).count() == 1


def test_checkpoint_stores_a_handoff_and_each_item(api):
    answer = api.post(
        "/projects/payments/checkpoint",
        {
            "summary": "Moved refunds to the ledger service.",
            "decisions": ["Refunds go through the ledger."],
            "open_items": ["Backfill old refunds."],
            "failed_approaches": ["Calling Stripe from the worker timed out."],
            "next_actions": ["Add a refund dashboard."],
        },
    )
    assert answer.status == 201, answer
    assert [(i["kind"], i["status"]) for i in answer.json["items"]] == [
        ("decisions", "created"),
        ("open_items", "created"),
        ("failed_approaches", "created"),
    ]
    handoff = Note.objects.get(public_id=answer.json["handoff"]["id"])
    assert "Add a refund dashboard." in handoff.body and handoff.type == NoteType.HANDOFF


def test_read_only_key_cannot_remember(api, cast):
    before = db_state()
    answer = remember(api.as_(cast.key(cast.member, read_only=True)), "Deploys happen on Tuesdays.")
    assert answer.status == 403 and db_state() == before
