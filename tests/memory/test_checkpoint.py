from __future__ import annotations

import pytest

from accounts.errors import Forbidden, InvalidArgument, NotFound
from memory import store
from memory.models import Note


def checkpoint(cast, **kwargs):
    return store.checkpoint(cast.principal(cast.member), "payments", **kwargs)


def test_stores_a_handoff_and_each_item_as_a_typed_note(cast):
    result = checkpoint(
        cast,
        summary="Refunds API done; UI next.",
        decisions=["Refunds are partial or full, never above the charge"],
        open_items=["Build the refund button on the order page"],
        failed_approaches=["Refunding through Stripe's old Charges API failed: deprecated"],
        next_actions=["Write the UI tests"],
    )
    handoff = Note.objects.get(public_id=result["handoff"]["id"])
    assert handoff.type == "handoff" and handoff.title == "Handoff: Refunds API done; UI next"
    for heading in ("## Decisions", "## Open items", "## Failed approaches", "## Next actions"):
        assert heading in handoff.body
    kinds = {(item["kind"], item["status"]) for item in result["items"]}
    assert kinds == {("decisions", "created"), ("open_items", "created"), ("failed_approaches", "created")}
    types = {Note.objects.get(public_id=item["id"]).type for item in result["items"]}
    assert types == {"decision", "task", "failed_approach"}


def test_items_go_through_remember_semantics(cast):
    store.remember(
        cast.principal(cast.member),
        "payments",
        "Use opaque tokens instead of JWTs for sessions",
        type="decision",
    )
    store.remember(cast.principal(cast.member), "payments", "Build the refund button", type="task")
    result = checkpoint(
        cast,
        summary="Session work",
        decisions=["Use JWTs instead of opaque tokens for sessions"],
        open_items=["Build the refund button"],
    )
    statuses = {item["kind"]: item["status"] for item in result["items"]}
    assert statuses == {"decisions": "conflict", "open_items": "duplicate"}
    assert "supersedes" in result["items"][0]["message"]
    assert Note.objects.count() == 3  # the two originals and the handoff


def test_idempotent_retry(cast):
    first = checkpoint(
        cast, summary="Done for today", decisions=["Cache for 5 minutes"], idempotency_key="cp-1"
    )
    again = checkpoint(
        cast, summary="Done for today", decisions=["Cache for 5 minutes"], idempotency_key="cp-1"
    )
    assert again == first and Note.objects.count() == 2


@pytest.mark.parametrize(
    "kwargs",
    [
        {"summary": ""},
        {"summary": "s", "decisions": "one"},
        {"summary": "s", "open_items": [""]},
        {"summary": "s", "decisions": [1]},
    ],
)
def test_bad_input_writes_nothing(cast, kwargs):
    with pytest.raises(InvalidArgument):
        checkpoint(cast, **kwargs)
    assert not Note.objects.exists()


def test_access(cast):
    with pytest.raises(Forbidden):
        store.checkpoint(cast.principal(cast.viewer), "payments", summary="x")
    with pytest.raises(NotFound):
        store.checkpoint(cast.principal(cast.outsider), "payments", summary="x")
    assert not Note.objects.exists()
