"""Writes enqueue embeddings after commit; the task skips what is done; a failing provider never
fails a write; backfill_embeddings catches up."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command

from accounts import scheduling
from knownbase.celery import finish_unqueued
from memory import store
from memory.embeddings import get_provider
from memory.embeddings.scheduling import schedule_bulk_embedding
from memory.limits import EMBED_BATCH
from memory.models import Note
from memory.tasks import embed_note_batch, embed_notes
from tests.celery_broker import broker


def embedded(note_id: str) -> Note:
    return Note.objects.get(public_id=note_id)


def test_a_write_embeds_after_commit(cast, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        note_id = store.create_note(
            cast.principal(cast.member), project="payments", title="T", body="Ledger rows"
        )["note"]["id"]
    assert len(callbacks) == 1
    note = embedded(note_id)
    assert note.embedding_model == "all-MiniLM-L6-v2-int8" and len(note.embedding or []) == 384
    assert note.embedding_hash == note.content_hash


def test_nothing_is_enqueued_before_commit(cast, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        note_id = store.create_note(cast.principal(cast.member), project="payments", title="T", body="b")[
            "note"
        ]["id"]
    assert embedded(note_id).embedding is None


def test_an_edit_re_embeds_and_an_unchanged_note_is_skipped(cast, django_capture_on_commit_callbacks):
    principal = cast.principal(cast.member)
    with django_capture_on_commit_callbacks(execute=True):
        note_id = store.create_note(principal, project="payments", title="T", body="first")["note"]["id"]
    first = embedded(note_id).embedding
    assert embed_notes([embedded(note_id).pk]) == "up to date"
    with django_capture_on_commit_callbacks(execute=True):
        store.patch_note(principal, note_id, "append", "a much longer second paragraph about refunds")
    note = embedded(note_id)
    assert note.embedding != first and note.embedding_hash == note.content_hash


def test_failing_provider_never_fails_the_write(cast, provider_settings, django_capture_on_commit_callbacks):
    provider_settings.EMBEDDINGS_PROVIDER = "openai"
    provider_settings.EMBEDDINGS_BASE_URL = "http://127.0.0.1:1/v1"  # nothing listens there
    provider_settings.EMBEDDINGS_MODEL = "m"
    provider_settings.EMBEDDINGS_TIMEOUT = 0.5
    with django_capture_on_commit_callbacks(execute=True):
        result = store.remember(cast.principal(cast.member), "payments", "Invoices are numbered per year")
    assert result["status"] == "created"
    assert embedded(result["note"]["id"]).embedding is None


def test_backfill_embeds_what_is_missing(cast, provider_settings, django_capture_on_commit_callbacks):
    provider_settings.EMBEDDINGS_PROVIDER = "none"
    ids = [
        store.create_note(cast.principal(cast.member), project="payments", title=f"T{i}", body=f"body {i}")[
            "note"
        ]["id"]
        for i in range(5)
    ]
    assert all(embedded(i).embedding is None for i in ids)
    provider_settings.EMBEDDINGS_PROVIDER = "local"
    from memory.embeddings import reset_provider

    reset_provider()
    out = StringIO()
    call_command("backfill_embeddings", "--batch-size", "2", stdout=out)
    assert "embedded 5 notes" in out.getvalue()
    assert all(embedded(i).embedding_model == get_provider().model_id for i in ids)  # type: ignore[union-attr]
    out = StringIO()
    call_command("backfill_embeddings", stdout=out)
    assert "embedded 0 notes" in out.getvalue()


def test_provider_change_re_embeds_in_backfill(cast, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        note_id = store.create_note(cast.principal(cast.member), project="payments", title="T", body="b")[
            "note"
        ]["id"]
    Note.objects.filter(public_id=note_id).update(embedding_model="old-model")
    out = StringIO()
    call_command("backfill_embeddings", stdout=out)
    assert "embedded 1 notes" in out.getvalue()
    assert embedded(note_id).embedding_model == "all-MiniLM-L6-v2-int8"


@pytest.mark.parametrize("provider", ["none"])
def test_no_provider_means_no_work(cast, provider_settings, provider):
    provider_settings.EMBEDDINGS_PROVIDER = provider
    out = StringIO()
    call_command("backfill_embeddings", stdout=out)
    assert "nothing to embed" in out.getvalue()


def test_broker_down_never_loses_the_write(cast, transactional_db, caplog):
    with broker("redis://127.0.0.1:1/0"):  # nothing listens there
        result = store.remember(
            cast.principal(cast.member), "payments", "Customs filings close at 17:00 local time"
        )
    assert result["status"] == "created"
    assert Note.objects.filter(public_id=result["note"]["id"]).exists()
    # The task the broker could not take ran in a background thread of this process instead.
    assert finish_unqueued(60)
    assert embedded(result["note"]["id"]).embedding_model == "all-MiniLM-L6-v2-int8"
    assert "Redis unreachable" in caplog.text


def test_bulk_work_is_sent_in_batches_of_embed_batch(cast, django_capture_on_commit_callbacks, monkeypatch):
    """An import's notes are one embed_note_batch task per EMBED_BATCH notes (routed to the bulk
    queue), never a task per note on the queue mail shares."""
    sent: list[tuple[str, tuple[Any, ...]]] = []
    monkeypatch.setattr(scheduling, "enqueue", lambda name, *args, countdown=None: sent.append((name, args)))
    with django_capture_on_commit_callbacks(execute=True):
        schedule_bulk_embedding(range(1, 2 * EMBED_BATCH + 2))
    assert [(name, len(args[0])) for name, args in sent] == [
        ("memory.tasks.embed_note_batch", EMBED_BATCH),
        ("memory.tasks.embed_note_batch", EMBED_BATCH),
        ("memory.tasks.embed_note_batch", 1),
    ]
    assert settings.CELERY_TASK_ROUTES["memory.tasks.embed_note_batch"]["queue"] == settings.CELERY_BULK_QUEUE

    sent.clear()
    owner = cast.principal(cast.owner)
    for i in range(3):
        store.create_note(owner, project="payments", title=f"T{i}", body=f"Ledger row {i}")
    document = store.export_content(owner, "payments")["content"]
    assert isinstance(document, dict)
    with django_capture_on_commit_callbacks(execute=True):
        store.import_project(owner, document, slug="payments-copy")
    imported = set(Note.objects.filter(project__slug="payments-copy").values_list("pk", flat=True))
    embeddings = [(name, set(args[0])) for name, args in sent if name.startswith("memory.tasks.embed")]
    assert embeddings == [("memory.tasks.embed_note_batch", imported)]


def test_a_batch_task_embeds_every_note_of_its_batch(cast):
    principal = cast.principal(cast.member)
    ids = [
        store.create_note(principal, project="payments", title=f"T{i}", body=f"Ledger rows {i}")["note"]["id"]
        for i in range(3)
    ]
    pks = [embedded(note_id).pk for note_id in ids]
    assert embed_note_batch.apply(args=(pks,)).get() == "embedded 3"
    assert all(embedded(note_id).embedding is not None for note_id in ids)
