"""A transfer job whose worker died is not left at "50 %" for ever: a run beats a heartbeat, the
sweeper fails a running job whose heartbeat stopped (with a reason a person can act on) and queues
again a queued job nobody took, and the person can retry a failed job. (tests/faults/ kills real
workers; these check each rule in-process.)"""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connections
from django.utils import timezone

from accounts.errors import Forbidden, InvalidArgument, NotFound
from accounts.principal import Principal, principal_for_session
from memory import store, tasks
from memory.models import TransferJob
from memory.transfer import exporting, jobs
from tests.mcp_gateway.state import save
from tests.memory.embeddings.test_celery_worker import wait_for


def session(cast, user) -> Principal:
    team = cast.globex if user == cast.outsider else cast.acme
    principal = principal_for_session(user, team.pk)
    assert principal is not None
    return principal


def make_job(cast, user=None, *, kind: str = "export", status: str = "running", **fields: Any) -> TransferJob:
    fields.setdefault("document", {"format": "knownbase-export"} if kind == "import" else None)
    fields.setdefault("credential_id", "a credential since revoked")
    return TransferJob.objects.create(
        team=cast.acme,
        user=user or cast.member,
        project=cast.payments if kind == "export" else None,
        kind=kind,
        format="json",
        status=status,
        total=4,
        progress=2,
        **fields,
    )


def silent(settings) -> timedelta:
    return timedelta(seconds=settings.TRANSFER_JOB_SILENT_SECONDS + 1)


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        ("export", "The worker stopped while exporting; start it again."),
        ("import", "The worker stopped while importing; nothing was imported. Start it again."),
    ],
)
def test_a_running_job_whose_heartbeat_stopped_ends_failed_with_its_reason(cast, settings, kind, reason):
    now = timezone.now()
    dead = make_job(cast, kind=kind, heartbeat_at=now - silent(settings))
    alive = make_job(cast, kind=kind, heartbeat_at=now)
    assert jobs.sweep(now) == {"failed": 1, "requeued": 0}
    dead.refresh_from_db()
    assert (dead.status, dead.error, dead.finished_at) == ("failed", reason, now)
    assert dead.progress == 2  # how far it got stays visible
    alive.refresh_from_db()
    assert (alive.status, alive.error) == ("running", "")


def test_a_page_shows_a_silent_job_failed_before_the_sweep_comes(cast, settings):
    member = session(cast, cast.member)
    job = make_job(cast, heartbeat_at=timezone.now() - silent(settings))
    shown = store.transfer_job(member, job.public_id)["job"]
    assert (shown["status"], shown["finished"], shown["retryable"]) == ("failed", True, True)
    assert shown["error"] == jobs.WORKER_STOPPED[TransferJob.Kind.EXPORT]


def test_a_queued_job_nobody_took_is_queued_again_and_after_long_enough_failed(
    cast, settings, django_capture_on_commit_callbacks, monkeypatch
):
    sent: list[tuple[Any, ...]] = []
    monkeypatch.setattr(
        tasks.run_transfer_job,
        "apply_async",
        lambda args=(), kwargs=None, **options: sent.append(tuple(args)),
    )
    now = timezone.now()
    fresh = make_job(cast, status="queued", queued_at=now)
    lost = make_job(cast, status="queued", queued_at=now - silent(settings))
    abandoned = make_job(cast, status="queued", updated_at=now - jobs.STALE_AFTER - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs.sweep(now) == {"failed": 1, "requeued": 1}
    assert sent == [(lost.pk,)]
    for job in (fresh, lost, abandoned):
        job.refresh_from_db()
    assert fresh.status == lost.status == "queued"
    assert lost.queued_at is not None and lost.queued_at > now - silent(settings)
    assert (abandoned.status, abandoned.error) == ("failed", jobs.STALE)


def test_a_failed_export_is_retried_by_its_requester_even_a_viewer(
    cast, settings, django_capture_on_commit_callbacks
):
    for i in range(3):
        save(cast, f"Note {i}", f"Body {i}")
    viewer = session(cast, cast.viewer)
    job = make_job(
        cast, cast.viewer, status="failed", error="The worker stopped while exporting; start it again."
    )
    with django_capture_on_commit_callbacks(execute=True):
        queued = store.retry_transfer_job(viewer, job.public_id)["job"]
    assert (queued["id"], queued["status"], queued["error"], queued["progress"]) == (
        job.public_id,
        "queued",
        "",
        0,
    )
    done = store.transfer_job(viewer, job.public_id)["job"]
    assert (done["status"], done["total"], done["percent"]) == ("succeeded", 3, 100)
    job.refresh_from_db()
    assert job.credential_id == viewer.credential_id and job.attempts == 1


def test_only_a_failed_job_of_ones_own_can_be_retried(cast, settings):
    member = session(cast, cast.member)
    refused = {
        "running": make_job(cast, heartbeat_at=timezone.now()),
        "queued": make_job(cast, status="queued"),
        "succeeded": make_job(cast, status="succeeded"),
        "staged": make_job(cast, kind="import", status="staged"),
        "import without its file": make_job(cast, kind="import", status="failed", document=None),
    }
    for name, job in refused.items():
        with pytest.raises(InvalidArgument):
            store.retry_transfer_job(member, job.public_id)
        assert TransferJob.objects.get(pk=job.pk).status == job.status, name
    assert (
        store.transfer_job(member, refused["import without its file"].public_id)["job"]["retryable"] is False
    )
    failed = make_job(cast, status="failed")
    for other in (cast.owner, cast.outsider):
        with pytest.raises(NotFound):
            store.retry_transfer_job(session(cast, other), failed.public_id)


def test_a_viewer_cannot_retry_an_import(cast):
    job = make_job(cast, cast.viewer, kind="import", status="failed")
    with pytest.raises(Forbidden):
        store.retry_transfer_job(session(cast, cast.viewer), job.public_id)
    assert TransferJob.objects.get(pk=job.pk).status == "failed"


def test_a_run_given_up_on_cannot_overwrite_the_retry_that_followed(
    cast, settings, django_capture_on_commit_callbacks, monkeypatch
):
    """A run that was only slow (its heartbeat starved) finishes after the sweeper failed its job and
    the person retried it: what it writes is dropped, and the retry's run is the one that counts."""
    save(cast, "Note", "Body")
    member = session(cast, cast.member)
    job = make_job(cast, status="queued", credential_id=member.credential_id)
    real_export = exporting.export_document

    def slow_export(*args: Any, **kwargs: Any) -> Any:
        jobs.sweep(timezone.now() + silent(settings))
        with django_capture_on_commit_callbacks(execute=False):  # the retry's own run comes later
            store.retry_transfer_job(member, job.public_id)
        return real_export(*args, **kwargs)

    monkeypatch.setattr(jobs, "export_document", slow_export)
    assert tasks.run_transfer_job(job.pk) == "queued"
    job.refresh_from_db()
    assert (job.status, job.content, job.attempts) == ("queued", "", 1)
    monkeypatch.setattr(jobs, "export_document", real_export)
    assert tasks.run_transfer_job(job.pk) == "succeeded"
    assert TransferJob.objects.get(pk=job.pk).attempts == 2


@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_beats_from_its_own_thread_and_closes_its_connection(cast, settings, monkeypatch):
    settings.TRANSFER_JOB_HEARTBEAT_SECONDS = 1
    old = timezone.now() - timedelta(minutes=5)
    job = make_job(cast, heartbeat_at=old, attempts=1)
    other_run = make_job(cast, heartbeat_at=old, attempts=2)
    closed_by: list[str] = []
    close_all = connections.close_all

    def recording_close_all() -> None:
        closed_by.append(threading.current_thread().name)
        close_all()

    monkeypatch.setattr(connections, "close_all", recording_close_all)  # the heartbeat's
    with jobs.heartbeat(job.pk, 1):
        assert wait_for(lambda: TransferJob.objects.get(pk=job.pk).heartbeat_at != old)
    assert f"transfer-heartbeat-{job.pk}" in closed_by
    assert not [t for t in threading.enumerate() if t.name.startswith("transfer-heartbeat-")]
    # It beats only for its own run of its own job.
    assert TransferJob.objects.get(pk=other_run.pk).heartbeat_at == old
