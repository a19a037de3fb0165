"""Racing writers: one expected_version, one winner; one idempotency key, one note."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection

from accounts.errors import VersionConflict
from memory import store
from memory.models import IdempotencyRecord, Note, NoteRevision

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
            connection.close()

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
