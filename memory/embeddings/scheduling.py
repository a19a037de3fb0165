"""Enqueueing embeddings after the write that changed the notes commits: one task per note for
single writes (default queue), one task per EMBED_BATCH notes on the bulk queue for bulk writes."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.conf import settings
from django.db import transaction

from accounts import scheduling
from memory.limits import EMBED_BATCH

log = logging.getLogger(__name__)


def schedule_embedding(note_pks: Iterable[int]) -> None:
    """Enqueue the embedding once the surrounding transaction commits; a broker or provider that is
    down never fails the write (robust on_commit, errors only logged)."""
    pks = list(note_pks)
    if not pks or settings.EMBEDDINGS_PROVIDER == "none":
        return

    def enqueue() -> None:
        for pk in pks:
            try:
                scheduling.enqueue("memory.tasks.embed_note", pk)
            except Exception:
                log.exception("could not enqueue embedding of note %s; backfill_embeddings will do it", pk)

    transaction.on_commit(enqueue, robust=True)


def schedule_bulk_embedding(note_pks: Iterable[int]) -> None:
    """As schedule_embedding, for many notes at once (an import): batches of EMBED_BATCH notes, each
    one memory.tasks.embed_note_batch task, which CELERY_TASK_ROUTES sends to CELERY_BULK_QUEUE."""
    pks = list(note_pks)
    if not pks or settings.EMBEDDINGS_PROVIDER == "none":
        return

    def enqueue() -> None:
        enqueue_batches(pks)

    transaction.on_commit(enqueue, robust=True)


def enqueue_batches(pks: list[int]) -> int:
    """Send these notes to the bulk queue now, EMBED_BATCH a task; the tasks sent. A batch the broker
    refuses is logged and left to backfill_embeddings, as a single note's would be."""
    sent = 0
    for start in range(0, len(pks), EMBED_BATCH):
        batch = pks[start : start + EMBED_BATCH]
        try:
            scheduling.enqueue("memory.tasks.embed_note_batch", batch)
        except Exception:
            log.exception(
                "could not enqueue embedding of %s notes; backfill_embeddings will do them", len(batch)
            )
        else:
            sent += 1
    return sent
