"""Per-team fairness: one team's large import sends its embeddings to the bulk queue, a batch of
EMBED_BATCH notes a task, so a password-reset mail sent after it is on the default queue, and a worker
of the default queue (as `make worker` and compose run one) serves it and another team's export
while the bulk work waits."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
import redis
from django.test import Client

from accounts.principal import principal_for_session
from memory import store
from memory.limits import EMBED_BATCH
from memory.models import Note, Project
from memory.transfer import exporting
from tests.celery_broker import Queues
from tests.faults.workers import Start
from tests.mcp_gateway.state import save
from tests.memory.embeddings.test_celery_worker import REDIS_URL, wait_for

pytestmark = pytest.mark.slow  # the machine's Redis, and a Celery worker process

NOTES = 2 * EMBED_BATCH + 1


def messages(queue: str) -> list[tuple[str, Any]]:
    """(task name, positional arguments) of every message waiting on `queue`, oldest first."""
    found = []
    for raw in reversed(redis.Redis.from_url(REDIS_URL).lrange(queue, 0, -1)):  # LPUSH'd
        message = json.loads(raw)
        args, _, _ = json.loads(base64.b64decode(message["body"]))
        found.append((message["headers"]["task"], args))
    return found


def large_document(cast) -> dict[str, Any]:
    save(cast, "Template", "A note to copy")
    document = exporting.export_document(cast.principal(cast.owner), cast.payments)
    [template] = document["notes"]
    document["notes"] = [
        {**template, "id": f"n_copy{i:04d}", "title": f"Copied note {i}", "body": f"Copied body {i}"}
        for i in range(NOTES)
    ]
    document["project"]["slug"] = "bulk-copy"
    return document


def test_an_imports_embeddings_wait_on_the_bulk_queue_behind_nothing_else(
    cast, queues: Queues, workers: Start, settings
):
    document = large_document(cast)
    cast.plan.max_notes = 10 * NOTES
    cast.plan.save()
    settings.EMBEDDINGS_PROVIDER = "local"  # enqueued only, never run here: no worker takes bulk work
    store.import_project(cast.principal(cast.owner), document)
    Client().post("/password/reset/", {"email": cast.member.email})

    bulk = messages(queues.bulk)
    assert [task for task, _ in bulk] == ["memory.tasks.embed_note_batch"] * 3
    batches = [args[0] for _, args in bulk]
    assert sorted(len(batch) for batch in batches) == [1, EMBED_BATCH, EMBED_BATCH]
    imported = set(Note.objects.filter(project__slug="bulk-copy").values_list("pk", flat=True))
    assert {pk for batch in batches for pk in batch} == imported and len(imported) == NOTES
    default = [task for task, _ in messages(queues.default)]
    assert default == ["web.tasks.send_password_reset"]

    # The default queue's worker alone: the mail is taken and another team's export runs to the end
    # while every bulk batch still waits.
    settings.TRANSFER_TASK_THRESHOLD = 0
    workers(consume=(queues.default,))
    assert wait_for(lambda: not messages(queues.default))
    outsider = principal_for_session(cast.outsider, cast.globex.pk)
    assert outsider is not None
    lab = Project.objects.get(team=cast.globex, slug="lab")
    Note.objects.create(team=cast.globex, project=lab, title="Lab note", body="Lab body", content_hash="h")
    started = store.start_export(outsider, "lab")
    assert started["job"] is not None
    job_id = started["job"]["id"]
    assert wait_for(lambda: store.transfer_job(outsider, job_id)["job"]["finished"])
    assert store.transfer_job(outsider, job_id)["job"]["status"] == "succeeded"
    # Untouched, and joined only by bulk work (the worker's start-up backfill).
    waiting = messages(queues.bulk)
    assert waiting[:3] == bulk
    assert {task for task, _ in waiting[3:]} <= {"memory.tasks.backfill_missing"}
