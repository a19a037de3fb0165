"""Racing writers: one expected_version, one winner; one idempotency key, one note."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connections

from accounts.errors import VersionConflict
from memory import store
from memory.models import IdempotencyRecord, Note, NoteRevision, Project

WRITERS = 8


def race(work: Callable[[int], Any]) -> list[Any]:
    """Run `work(i)` in WRITERS threads released together; return results or exceptions."""
    barrier = threading.Barrier(WRITERS)
    outcomes: list[Any] = [None] * WRITERS

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[i] = work(i)
        except Exception as exc:
            outcomes[i] = exc
        finally:
            # A thread's connection would otherwise keep its pool slot after the thread ends.
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


def test_racing_writers_with_one_expected_version_exactly_one_wins(cast, transactional_db):
    principal = cast.principal(cast.member)
    note_id = store.create_note(principal, project="payments", title="Counter", body="0")["note"]["id"]
    outcomes = race(
        lambda i: store.update_note(principal, id=note_id, body=f"writer {i}", expected_version=1)
    )
    winners = [o for o in outcomes if isinstance(o, dict)]
    losers = [o for o in outcomes if isinstance(o, VersionConflict)]
    assert len(winners) == 1 and len(losers) == WRITERS - 1
    note = Note.objects.get(public_id=note_id)
    assert note.version == 2 and note.body == winners[0]["note"]["body"]
    assert NoteRevision.objects.filter(note=note).count() == 1


def test_racing_writers_without_expected_version_lose_no_update(cast, transactional_db):
    principal = cast.principal(cast.member)
    note_id = store.create_note(principal, project="payments", title="Log", body="start")["note"]["id"]
    outcomes = race(lambda i: store.patch_note(principal, note_id, "append", f"line {i}"))
    assert all(isinstance(o, dict) for o in outcomes), outcomes
    note = Note.objects.get(public_id=note_id)
    assert note.version == WRITERS + 1
    assert all(f"line {i}" in note.body for i in range(WRITERS))


def test_concurrent_retries_with_one_idempotency_key_create_one_note(cast, transactional_db):
    principal = cast.principal(cast.member)
    outcomes = race(
        lambda i: store.remember(
            principal, "payments", "Ledger entries are append-only", idempotency_key="retry-1"
        )
    )
    assert all(isinstance(o, dict) for o in outcomes), outcomes
    assert Note.objects.count() == 1
    assert {o["note"]["id"] for o in outcomes} == {Note.objects.get().public_id}
    assert {o["status"] for o in outcomes} == {"created"}
    assert IdempotencyRecord.objects.count() == 1


def test_concurrent_retries_of_a_team_wide_key_create_one_project(cast, transactional_db):
    # No project exists yet, so the record has none: the team-wide unique index serialises the retries.
    principal = cast.principal(cast.owner)
    outcomes = race(lambda i: store.create_project(principal, "Billing", idempotency_key="new-project"))
    assert all(isinstance(o, dict) for o in outcomes), outcomes
    assert Project.objects.filter(slug="billing").count() == 1
    assert IdempotencyRecord.objects.filter(project=None).count() == 1


def test_parallel_remembers_of_one_text_create_exactly_one_note(cast, transactional_db):
    # Different callers and spellings of one statement: the duplicate check and the insert are one
    # step per project and content, so exactly one of them creates the note.
    principals = [cast.principal(cast.member), cast.principal(cast.owner)]
    outcomes = race(
        lambda i: store.remember(
            principals[i % 2], "payments", "Refunds are issued within five business days" + " " * i
        )
    )
    assert all(isinstance(o, dict) for o in outcomes), outcomes
    statuses = sorted(o["status"] for o in outcomes)
    assert statuses == ["created"] + ["duplicate"] * (WRITERS - 1)
    assert Note.objects.count() == 1
    assert {o["note"]["id"] for o in outcomes} == {Note.objects.get().public_id}


def test_parallel_remembers_of_trivial_variants_create_exactly_one_note(cast, transactional_db):
    # Case, a trailing "!" or a leading label do not change the statement: the racing variants wait
    # for each other and all but the first find the note it stored.
    fact = "Refunds are issued within five business days"
    variants = [
        fact,
        fact.lower(),
        fact + "!",
        "Note: " + fact,
        "FYI: " + fact.upper(),
        "Decision: " + fact + ".",
        "note - " + fact + "!!",
        '"' + fact + '"',
    ]
    assert len(variants) == WRITERS
    principal = cast.principal(cast.member)
    outcomes = race(lambda i: store.remember(principal, "payments", variants[i]))
    assert all(isinstance(o, dict) for o in outcomes), outcomes
    assert sorted(o["status"] for o in outcomes) == ["created"] + ["duplicate"] * (WRITERS - 1)
    assert Note.objects.count() == 1
    assert {o["note"]["id"] for o in outcomes} == {Note.objects.get().public_id}


def test_one_text_in_two_projects_is_stored_in_each(cast, transactional_db):
    principal = cast.principal(cast.member)
    projects = ["payments", "website"]
    outcomes = race(lambda i: store.remember(principal, projects[i % 2], "Logs are kept for 30 days"))
    assert all(isinstance(o, dict) for o in outcomes), outcomes
    assert sorted(o["status"] for o in outcomes).count("created") == 2
    assert sorted(Note.objects.values_list("project__slug", flat=True)) == projects


def test_checkpoints_and_remembers_of_the_same_items_neither_deadlock_nor_duplicate(cast, transactional_db):
    # A checkpoint writes its handoff (which locks the project's change sequence) and then judges each
    # item; a remember of one of those items in between must not wait on it while holding what the
    # checkpoint needs next.
    principal = cast.principal(cast.member)
    items = ["Retry webhooks with backoff", "Amounts are stored in cents", "Refunds need two approvals"]

    def work(i: int) -> Any:
        if i % 2:
            return store.checkpoint(
                principal, "payments", f"Session {i}", decisions=items[::-1] if i % 4 == 1 else items
            )
        return store.remember(principal, "payments", items[i % 3], type="decision")

    outcomes = race(work)
    assert all(isinstance(o, dict) for o in outcomes), outcomes
    bodies = list(Note.objects.exclude(type="handoff").values_list("body", flat=True))
    assert sorted(bodies) == sorted(items)
