"""A real Celery worker on the machine's Redis embeds what the web process enqueues on commit."""

from __future__ import annotations

import time
from collections.abc import Iterator
from io import StringIO

import pytest
from django.core.management import call_command

from memory import store
from memory.models import Note
from tests.celery_broker import worker_process

REDIS_URL = "redis://127.0.0.1:6379/7"
pytestmark = pytest.mark.slow  # a Celery worker process


def wait_for(condition, timeout: float = 90.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


@pytest.fixture
def worker(transactional_db) -> Iterator[str]:
    with worker_process(REDIS_URL, "knownbase-test") as queue:
        yield queue


def test_a_write_is_embedded_by_the_worker(cast, worker):
    result = store.remember(
        cast.principal(cast.member), "payments", "Customs documents are archived for seven years"
    )
    note_pk = Note.objects.get(public_id=result["note"]["id"]).pk
    # The write returned before any embedding existed: the worker does it in the background.
    assert wait_for(lambda: Note.objects.filter(pk=note_pk, embedding__isnull=False).exists())
    note = Note.objects.get(pk=note_pk)
    assert note.embedding_model == "all-MiniLM-L6-v2-int8" and note.embedding_hash == note.content_hash


def test_backfill_can_enqueue_for_the_worker(cast, worker, settings):
    ids = []
    for i in range(3):
        note = Note.objects.create(
            team=cast.acme,
            project=cast.payments,
            title=f"Port call {i}",
            body=f"Berth window {i}",
            content_hash=f"h{i}",
        )
        ids.append(note.pk)
    out = StringIO()
    call_command("backfill_embeddings", "--enqueue", stdout=out)
    assert "queued 3 notes" in out.getvalue()
    assert wait_for(lambda: Note.objects.filter(pk__in=ids, embedding__isnull=False).count() == 3)
