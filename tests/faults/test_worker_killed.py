"""A Celery worker killed mid-job (SIGKILL: no clean-up of any kind): the sweeper ends the job
`failed` with a reason a person can act on, nothing half-done is kept, and a retry on a new worker
completes it under the same id."""

from __future__ import annotations

import json
import signal
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.principal import Principal, principal_for_session
from memory import store
from memory.models import Note, NoteRevision, Project, TransferJob
from memory.transfer import exporting, jobs
from tests.celery_broker import forget_queues
from tests.faults.workers import Start, job_row, table_locked
from tests.mcp_gateway.state import save
from tests.memory.embeddings.test_celery_worker import REDIS_URL, wait_for
from tests.memory.test_transfer_jobs import download

pytestmark = pytest.mark.slow  # Celery worker processes on the machine's Redis


def session(cast, user) -> Principal:
    principal = principal_for_session(user, cast.acme.pk)
    assert principal is not None
    return principal


def stopped_inside(job_id: str) -> None:
    """The worker took the job and is inside it, waiting on the locked table, its heartbeat going on."""
    assert wait_for(lambda: job_row(job_id).status == TransferJob.Status.RUNNING)
    first = job_row(job_id).heartbeat_at
    assert first is not None
    assert wait_for(lambda: (beat := job_row(job_id).heartbeat_at) is not None and beat > first)
    # A sweep now leaves a job whose worker is alive alone, however long the job takes.
    assert jobs.sweep() == {"failed": 0, "requeued": 0}


def kill(worker) -> None:
    worker.send_signal(signal.SIGKILL)
    worker.wait(timeout=30)


def sweep_later(settings) -> dict[str, int]:
    """The minute's sweep, with the clock moved past the silence the settings allow."""
    return jobs.sweep(timezone.now() + timedelta(seconds=settings.TRANSFER_JOB_SILENT_SECONDS + 1))


def test_a_killed_export_fails_with_its_reason_and_a_retry_completes(cast, workers: Start, settings):
    settings.TRANSFER_TASK_THRESHOLD = 2
    for i in range(3):
        save(cast, f"Killed note {i}", f"Body {i}")
    member = session(cast, cast.member)
    worker = workers()
    with table_locked(NoteRevision._meta.db_table):
        started = store.start_export(member, "payments", "json")
        assert started["job"] is not None
        job_id = started["job"]["id"]
        stopped_inside(job_id)
        kill(worker)
    row = job_row(job_id)
    assert (row.status, row.progress, row.total) == ("running", 0, 3)

    assert sweep_later(settings) == {"failed": 1, "requeued": 0}
    shown = store.transfer_job(member, job_id)["job"]
    assert (shown["status"], shown["finished"], shown["retryable"], shown["url"]) == (
        "failed",
        True,
        True,
        None,
    )
    assert shown["error"] == "The worker stopped while exporting; start it again."
    assert job_row(job_id).content == ""

    workers()
    retried = store.retry_transfer_job(member, job_id)["job"]
    assert (retried["id"], retried["status"], retried["error"], retried["progress"]) == (
        job_id,
        "queued",
        "",
        0,
    )
    assert wait_for(lambda: store.transfer_job(member, job_id)["job"]["finished"])
    done = store.transfer_job(member, job_id)["job"]
    assert (done["status"], done["progress"], done["total"], done["percent"]) == ("succeeded", 3, 3, 100)
    assert job_row(job_id).attempts == 2
    status, body = download(done["url"])
    assert status == 200
    assert sorted(note["title"] for note in json.loads(body)["notes"]) == [
        f"Killed note {i}" for i in range(3)
    ]


def test_a_killed_import_writes_nothing_keeps_its_file_and_a_retry_imports(cast, workers: Start, settings):
    settings.TRANSFER_TASK_THRESHOLD = 0
    for i in range(3):
        save(cast, f"Imported note {i}", f"Body {i}")
    owner = session(cast, cast.owner)
    document = exporting.export_document(owner, cast.payments)
    document["project"]["slug"] = "payments-copy"
    staged = store.start_import(owner, document)["job"]
    worker = workers()
    # The import holds the team locked in its one transaction and waits on the notes table.
    with table_locked(Note._meta.db_table):
        assert store.confirm_import(owner, staged["id"])["job"]["status"] == "queued"
        stopped_inside(staged["id"])
        kill(worker)
    assert sweep_later(settings) == {"failed": 1, "requeued": 0}
    shown = store.transfer_job(owner, staged["id"])["job"]
    assert shown["status"] == "failed" and shown["retryable"] is True
    assert shown["error"] == "The worker stopped while importing; nothing was imported. Start it again."
    # The killed transaction rolled back: no project, no note.
    assert not Project.objects.filter(slug="payments-copy").exists()
    assert not Note.objects.filter(project__slug="payments-copy").exists()

    workers()
    assert store.retry_transfer_job(owner, staged["id"])["job"]["status"] == "queued"
    assert wait_for(lambda: store.transfer_job(owner, staged["id"])["job"]["finished"])
    assert store.transfer_job(owner, staged["id"])["job"]["status"] == "succeeded"
    assert Note.objects.filter(project__slug="payments-copy").count() == 3
    assert job_row(staged["id"]).document is None  # kept only until it succeeded


def test_a_queued_job_whose_message_was_lost_is_queued_again(cast, queues, workers: Start, settings):
    """A message taken by a worker that died before claiming the job (or lost with the broker): the
    sweeper sends it again, and the next worker runs it."""
    settings.TRANSFER_TASK_THRESHOLD = 2
    for i in range(3):
        save(cast, f"Lost note {i}", f"Body {i}")
    member = session(cast, cast.member)
    started = store.start_export(member, "payments", "json")
    assert started["job"] is not None
    job_id = started["job"]["id"]
    forget_queues(REDIS_URL, queues)  # the message is gone; the job still says queued
    assert job_row(job_id).status == "queued"
    assert sweep_later(settings) == {"failed": 0, "requeued": 1}
    workers()
    assert wait_for(lambda: store.transfer_job(member, job_id)["job"]["finished"])
    assert store.transfer_job(member, job_id)["job"]["status"] == "succeeded"
