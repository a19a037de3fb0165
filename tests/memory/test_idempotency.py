"""Idempotency keys are scoped to the caller, the operation, the project and the request itself:
a retry of the same request replays the first answer; the same key with another request is refused
(as Stripe does), never answered with another request's result."""

from __future__ import annotations

import pytest

from accounts.errors import InvalidArgument
from memory import store
from memory.models import IdempotencyRecord, Note


def test_a_key_used_in_another_project_does_not_replay_that_projects_note(cast):
    member = cast.principal(cast.member)
    website = store.remember(member, "website", "The footer links to the status page", idempotency_key="k-1")
    # A credential narrowed to payments, retrying with the key the same user first sent to website.
    payments_only = cast.principal(cast.member, project=cast.payments)
    result = store.remember(payments_only, "payments", "Refunds settle in five days", idempotency_key="k-1")

    assert result["status"] == "created"
    assert result["note"]["project"] == "payments"
    assert result["note"]["id"] != website["note"]["id"]
    assert "footer" not in str(result).lower()
    note = Note.objects.get(public_id=result["note"]["id"])
    assert (note.project, note.body) == (cast.payments, "Refunds settle in five days")
    assert IdempotencyRecord.objects.filter(key="k-1").count() == 2


def test_the_same_key_with_another_request_is_invalid_argument(cast):
    member = cast.principal(cast.member)
    first = store.remember(member, "payments", "Refunds settle in five days", idempotency_key="k-2")
    for changed in (
        {"content": "Refunds settle in ten days"},
        {"content": "Refunds settle in five days", "type": "decision"},
        {"content": "Refunds settle in five days", "tags": ["refunds"]},
        {"content": "Refunds settle in five days", "force": True},
    ):
        with pytest.raises(InvalidArgument) as error:
            store.remember(member, "payments", idempotency_key="k-2", **changed)
        assert "idempotency_key" in error.value.message
        assert "different request" in error.value.message
    assert Note.objects.count() == 1
    # The first request, sent again, still replays its answer.
    assert store.remember(member, "payments", "Refunds settle in five days", idempotency_key="k-2") == first


def test_an_equivalent_retry_replays_the_answer(cast):
    # The request is compared after validation: whitespace and tag spelling that validation folds
    # make no different request.
    member = cast.principal(cast.member)
    first = store.remember(
        member, "payments", "Refunds settle in five days", tags=["Refunds"], idempotency_key="k-3"
    )
    again = store.remember(
        member, "payments", "  Refunds settle in five days\n", tags=["refunds"], idempotency_key="k-3"
    )
    assert again == first and Note.objects.count() == 1


def test_checkpoint_with_the_same_key_and_another_summary_is_invalid_argument(cast):
    member = cast.principal(cast.member)
    store.checkpoint(
        member, "payments", "Done for today", decisions=["Cache for 5 minutes"], idempotency_key="c-1"
    )
    with pytest.raises(InvalidArgument, match="different request"):
        store.checkpoint(
            member, "payments", "Done for today", decisions=["Cache for 10 minutes"], idempotency_key="c-1"
        )
    with pytest.raises(InvalidArgument, match="different request"):
        store.checkpoint(
            member, "payments", "Done for tomorrow", decisions=["Cache for 5 minutes"], idempotency_key="c-1"
        )
    assert Note.objects.count() == 2
    # The key is free in another project.
    other = store.checkpoint(member, "website", "Done for today", idempotency_key="c-1")
    assert Note.objects.get(public_id=other["handoff"]["id"]).project == cast.website


def test_the_record_keeps_a_digest_of_the_request_not_its_text(cast):
    store.remember(
        cast.principal(cast.member), "payments", "Refunds settle in five days", idempotency_key="k-4"
    )
    record = IdempotencyRecord.objects.get(key="k-4")
    assert record.project == cast.payments
    assert len(record.request_hash) == 64 and "Refunds" not in record.request_hash
