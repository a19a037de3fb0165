"""Enqueueing a note's embedding after the write that changed it commits."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.conf import settings
from django.db import transaction

from accounts import scheduling

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
