"""Background work: embeddings, read reinforcement, transfer jobs. Tasks take ids, reload rows, skip work already done, and retry.

embed_note_batch and backfill_missing are bulk work: CELERY_TASK_ROUTES sends them to
CELERY_BULK_QUEUE, which a worker process of its own consumes; everything else stays on the default
queue (mail, audit rows, exports, single writes' embeddings)."""

from __future__ import annotations

import logging

from celery import Task, shared_task

from memory import store
from memory.embeddings import ProviderError, get_provider
from memory.embeddings.queries import missing_embeddings
from memory.limits import EMBED_BATCH
from memory.models import Note
from memory.notes import reinforcement
from memory.recall.semantic import cached_vectors, embedding_text, ensure_vector_index
from memory.transfer import jobs

log = logging.getLogger(__name__)


def needs_embedding(note: Note, model_id: str) -> bool:
    return note.deleted_at is None and not (
        note.embedding_model == model_id
        and note.embedding_hash == note.content_hash
        and note.embedding is not None
    )


MAX_RETRIES = 8


# when_unqueued (knownbase.celery.ResilientTask): with no broker, slow work runs in a background
# thread of the process that asked, not in its request.
@shared_task(bind=True, max_retries=MAX_RETRIES, acks_late=True, when_unqueued="thread")
def embed_note(self: Task, note_pk: int) -> str:
    return _embed_or_retry(self, [note_pk])


@shared_task(bind=True, max_retries=MAX_RETRIES, acks_late=True, when_unqueued="thread")
def embed_note_batch(self: Task, note_pks: list[int]) -> str:
    """Up to EMBED_BATCH notes of bulk work (an import), on the bulk queue."""
    return _embed_or_retry(self, note_pks)


def _embed_or_retry(task: Task, note_pks: list[int]) -> str:
    try:
        return embed_notes(note_pks)
    except ProviderError as exc:
        if task.request.is_eager:
            # In-process (no worker): never hold a write up with retries; backfill_embeddings catches up.
            log.warning("embedding of notes %s failed: %s", note_pks, exc)
            return "provider failed"
        raise task.retry(exc=exc, countdown=min(300, 2 ** (task.request.retries + 1))) from exc


def embed_notes(note_pks: list[int]) -> str:
    """Embed these notes with the current provider, skipping any whose text already has a vector of
    the current model. The write is conditional on the content hash, so a note edited meanwhile is
    left for the task its edit enqueued."""
    provider = get_provider()
    if provider is None:
        return "no provider"
    notes = [n for n in Note.objects.filter(pk__in=note_pks) if needs_embedding(n, provider.model_id)]
    if not notes:
        return "up to date"
    texts = [embedding_text(n.title, n.body) for n in notes]
    vectors = cached_vectors(provider.model_id, "document", texts)
    missing = [i for i, vector in enumerate(vectors) if vector is None]
    if missing:
        fresh = provider.embed([texts[i] for i in missing], kind="document")
        for index, computed in zip(missing, fresh, strict=True):
            vectors[index] = computed
    for note, vector in zip(notes, vectors, strict=True):
        Note.objects.filter(pk=note.pk, content_hash=note.content_hash).update(
            embedding=vector, embedding_model=provider.model_id, embedding_hash=note.content_hash
        )
    return f"embedded {len(notes)}"


@shared_task(acks_late=True, when_unqueued="thread")
def backfill_missing(batch_size: int = EMBED_BATCH) -> str:
    """Embed every note lacking a vector of the current model (run when a worker starts, so a change
    of provider re-embeds in the background)."""
    provider = get_provider()
    if provider is None:
        return "no provider"

    pks = list(missing_embeddings(provider.model_id).order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(pks), batch_size):
        embed_notes(pks[start : start + batch_size])
    if provider.dim:
        ensure_vector_index(provider.model_id, provider.dim)
    return f"embedded {len(pks)}"


@shared_task(acks_late=True)
def flush_reinforcement() -> int:
    """Apply buffered note reads (memory.notes.reinforcement) in one statement."""
    return reinforcement.flush()


@shared_task(acks_late=True, when_unqueued="thread")
def run_transfer_job(job_pk: int) -> str:
    """Run a queued export or import (memory.transfer.jobs); it ends succeeded or failed, never stuck."""
    return jobs.run(job_pk, import_project=store.import_project)


@shared_task(acks_late=True)
def sweep_transfer_jobs() -> dict[str, int]:
    """Scheduled every minute (CELERY_BEAT_SCHEDULE): jobs whose worker died end failed, with a
    reason; queued ones no worker took are queued again."""
    return jobs.sweep()


@shared_task(acks_late=True)
def purge_transfer_jobs() -> int:
    """Scheduled hourly (CELERY_BEAT_SCHEDULE): finished exports and imports are kept a day."""
    return jobs.purge()
