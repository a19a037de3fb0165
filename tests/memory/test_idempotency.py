"""Idempotency keys are scoped to the caller, the operation, the project and the request itself:
a retry of the same request replays the first answer; the same key with another request is refused
(as Stripe does), never answered with another request's result."""

from __future__ import annotations

import dataclasses

import pytest

from accounts.errors import InvalidArgument
from accounts.models import ApiKey
from memory import store
from memory.models import IdempotencyRecord, Note, NoteLink, Project


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


def test_a_team_wide_key_replays_the_project_it_created(cast):
    # create_project has no project to scope the key to: the record belongs to the team, and the
    # retry replays instead of failing on the slug the first call took.
    owner = cast.principal(cast.owner)
    first = store.create_project(owner, "Billing", summary="Invoices", idempotency_key="p-1")
    assert store.create_project(owner, "Billing", summary="Invoices", idempotency_key="p-1") == first
    assert Project.objects.filter(team=cast.acme, slug="billing").count() == 1
    assert IdempotencyRecord.objects.get(key="p-1").project is None
    with pytest.raises(InvalidArgument, match="different request to create_project in this team"):
        store.create_project(owner, "Billing", summary="Payables", idempotency_key="p-1")
    # Without the key the same call is a new request, refused on the slug.
    with pytest.raises(InvalidArgument, match="exists already"):
        store.create_project(owner, "Billing", summary="Invoices")


def test_a_key_belongs_to_one_credential_of_the_user(cast):
    laptop = cast.principal(cast.member)
    ci = dataclasses.replace(laptop, credential_id="api_key:kb_0123456789abcdef")
    first = store.create_note(laptop, "payments", "Cache", "Cache for 5 minutes.", idempotency_key="k-5")
    second = store.create_note(ci, "payments", "Cache", "Cache for 5 minutes.", idempotency_key="k-5")
    assert first["note"]["id"] != second["note"]["id"] and Note.objects.count() == 2
    assert set(IdempotencyRecord.objects.values_list("credential", flat=True)) == {
        laptop.credential_id,
        ci.credential_id,
    }


def test_a_link_retried_replays_created_not_exists(cast):
    member = cast.principal(cast.member)
    a = store.create_note(member, "payments", "A", "Note A.")["note"]["id"]
    b = store.create_note(member, "payments", "B", "Note B.")["note"]["id"]
    first = store.relate_notes(member, a, b, "relates_to", idempotency_key="l-1")
    assert store.relate_notes(member, a, b, "relates_to", idempotency_key="l-1") == first
    assert first["status"] == "created" and NoteLink.objects.count() == 1
    # Removing with the same key is another request.
    with pytest.raises(InvalidArgument, match="different request"):
        store.relate_notes(member, a, b, "relates_to", remove=True, idempotency_key="l-1")
    assert NoteLink.objects.count() == 1


def test_a_replayed_api_key_secret_opens_only_under_the_secret_key(cast, settings):
    owner = cast.principal(cast.owner)
    first = store.create_api_key(owner, "CI", idempotency_key="key-1")
    assert store.create_api_key(owner, "CI", idempotency_key="key-1") == first
    assert first["key"] not in str(IdempotencyRecord.objects.get(key="key-1").response)
    # After a key rotation that drops the old SECRET_KEY, the secret cannot be opened: no secret, no
    # second key, and the caller is told what to do.
    settings.SECRET_KEY = "another-secret-key-" + "x" * 40
    settings.SECRET_KEY_FALLBACKS = []
    with pytest.raises(InvalidArgument, match="revoke"):
        store.create_api_key(owner, "CI", idempotency_key="key-1")
    assert ApiKey.objects.filter(name="CI").count() == 1
