"""Exports and imports that run in the background, followed by a page through their TransferJob row.

The store creates a job and queues it once its transaction commits; `run` is the task body. Only a
queued job starts (a conditional update claims it, so a second delivery does nothing). The worker
acts as the credential that asked, if it is still live, and every run ends in `succeeded` or `failed`
with a message. An import is one store call, one transaction: a failed import wrote nothing.

A worker can die mid-job (killed, out of memory, its machine gone): a run writes a heartbeat from a
thread of its own, and `sweep` (every minute, memory.tasks.sweep_transfer_jobs) fails a running job
whose heartbeat stopped and queues again a queued job no worker took. A failed job can be retried.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connections, transaction
from django.db.models import F, Q
from django.utils import timezone

from accounts import scheduling
from accounts.errors import Forbidden, InvalidArgument, NotFound, StoreError
from accounts.principal import Principal, principal_for_credential
from memory.models import Note, Project, TransferJob
from memory.notes.lifecycle import rfc3339
from memory.shapes import results_team
from memory.transfer.exporting import export_counts, export_document, export_file, signed_export_url

log = logging.getLogger(__name__)

# A queued job nobody started for this long is failed, and no longer starts: no worker came, and the
# person should not wait on it for ever (a running one is judged by its heartbeat instead).
STALE_AFTER = timedelta(minutes=30)
# Finished jobs (and the files exports keep) are deleted after this (memory.tasks.purge_transfer_jobs).
KEEP_FOR = timedelta(days=1)
UNEXPECTED = "The job stopped on an unexpected error; nothing was imported. Try again, or ask support."
STALE = "The job stopped without finishing (its worker went away); nothing was imported. Start it again."
CREDENTIAL_GONE = "The sign-in or key that started this job is no longer valid here; start it again."
# Why a running job whose heartbeat stopped failed, by kind.
WORKER_STOPPED = {
    TransferJob.Kind.EXPORT: "The worker stopped while exporting; start it again.",
    TransferJob.Kind.IMPORT: "The worker stopped while importing; nothing was imported. Start it again.",
}
IMPORT_GONE = "The file of this import is no longer kept: import it again."


def threshold() -> int:
    """Up to this many notes an export or import runs within the request; beyond it, in the background."""
    return int(settings.TRANSFER_TASK_THRESHOLD)


def visible_notes(principal: Principal, project: Project) -> int:
    return int(Note.objects.visible_to(principal).filter(project=project).count())


def job_for(principal: Principal, job_id: Any) -> TransferJob:
    """The caller's own job; not_found for anything else, exactly as for a job that does not exist."""
    job = (
        TransferJob.objects.visible_to(principal)
        .defer("document", "content")
        .filter(public_id=job_id)
        .first()
        if isinstance(job_id, str)
        else None
    )
    if job is None:
        # The id is not repeated: whatever a caller put in the path (a secret pasted by mistake
        # included) never comes back in an answer.
        raise NotFound(
            "No such transfer job of yours in this team: check the job id the export or import returned."
        )
    return job


def silent_for() -> timedelta:
    return timedelta(seconds=int(settings.TRANSFER_JOB_SILENT_SECONDS))


def stopped(job: TransferJob, now: datetime) -> str | None:
    """Why an unfinished job is over although no run said so, as the sweeper will record it; None
    while it may still end well. Pages say so at once, without waiting for the sweeper."""
    if job.status == TransferJob.Status.QUEUED and job.updated_at < now - STALE_AFTER:
        return STALE
    if job.status == TransferJob.Status.RUNNING:
        beat = job.heartbeat_at or job.updated_at
        if beat < now - silent_for():
            return WORKER_STOPPED[TransferJob.Kind(job.kind)]
    return None


def job_dict(principal: Principal, job: TransferJob) -> results_team.TransferJob:
    """The job as a page shows it; a finished export carries a fresh signed link to its file."""
    status, error = job.status, job.error
    reason = stopped(job, timezone.now())
    if reason is not None:
        status, error = TransferJob.Status.FAILED, reason
    url = expires_at = None
    project = job.project
    if job.kind == TransferJob.Kind.EXPORT and status == TransferJob.Status.SUCCEEDED and project is not None:
        link, expiry = signed_export_url(principal, project, job.format, job=job.public_id)
        url, expires_at = link, rfc3339(expiry)
    return {
        "id": job.public_id,
        "kind": job.kind,
        "format": job.format,
        "status": status,
        "progress": job.progress,
        "total": job.total,
        "percent": 100 if status == TransferJob.Status.SUCCEEDED else _percent(job.progress, job.total),
        "finished": status in (TransferJob.Status.SUCCEEDED, TransferJob.Status.FAILED),
        "project": project.slug if project is not None else None,
        "result": job.result,
        "error": error,
        "retryable": status == TransferJob.Status.FAILED and _rerunnable(job),
        "url": url,
        "expires_at": expires_at,
        "created_at": rfc3339(job.created_at),
        "finished_at": rfc3339(job.finished_at),
    }


def _rerunnable(job: TransferJob) -> bool:
    # An export runs again from the project; an import needs the document it keeps until it succeeds.
    if job.kind == TransferJob.Kind.EXPORT:
        return True
    return bool(TransferJob.objects.filter(pk=job.pk, document__isnull=False).exists())


def _percent(done: int, total: int) -> int:
    return 0 if total <= 0 else min(100, done * 100 // total)


# ------------------------------------------------------------------------------------------ starting


def create_export(principal: Principal, project: Project, fmt: str, total: int) -> TransferJob:
    job = TransferJob.objects.create(
        team_id=principal.team_id,
        user_id=principal.user_id,
        project=project,
        credential_id=principal.credential_id,
        kind=TransferJob.Kind.EXPORT,
        format=fmt,
        total=total,
    )
    queue(job.pk)
    return job


def stage_import(
    principal: Principal, document: Any, slug: str | None, name: str | None, report: results_team.ImportDryRun
) -> TransferJob:
    """Keep a document the dry run accepted until the person confirms it (or it is purged)."""
    return TransferJob.objects.create(
        team_id=principal.team_id,
        user_id=principal.user_id,
        credential_id=principal.credential_id,
        kind=TransferJob.Kind.IMPORT,
        format="json",
        status=TransferJob.Status.STAGED,
        total=int(report["would_import"]["notes"]),
        result=report,
        slug=slug or "",
        name=name or "",
        document=document,
    )


def queue(job_pk: int) -> None:
    """Enqueue the job once the surrounding transaction commits; a broker that is down fails the job
    with a message instead of leaving it queued."""
    TransferJob.objects.filter(pk=job_pk).update(queued_at=timezone.now())

    def enqueue() -> None:
        try:
            scheduling.enqueue("memory.tasks.run_transfer_job", job_pk)
        except Exception:
            log.exception("could not enqueue transfer job %s", job_pk)
            _finish(
                job_pk, TransferJob.Status.FAILED, error="The job could not be queued; try again shortly."
            )

    transaction.on_commit(enqueue)


def retry(principal: Principal, job_id: Any) -> TransferJob:
    """Queue a failed job of the caller's again, as the caller (the credential that asked first may
    be gone). A job that pages show failed because its worker stopped counts as failed already."""
    job = job_for(principal, job_id)
    if job.kind == TransferJob.Kind.IMPORT and not principal.can_write:
        raise principal.write_refusal()
    now = timezone.now()
    over = Q(status=TransferJob.Status.FAILED) | _stalled(now) | _never_started(now)
    reset: dict[str, Any] = {"result": {}, "content": ""} if job.kind == TransferJob.Kind.EXPORT else {}
    claimed = (
        TransferJob.objects.filter(over, pk=job.pk)
        .exclude(kind=TransferJob.Kind.IMPORT, document__isnull=True)
        .update(
            status=TransferJob.Status.QUEUED,
            credential_id=principal.credential_id,
            progress=0,
            error="",
            heartbeat_at=None,
            finished_at=None,
            updated_at=now,
            **reset,
        )
    )
    if not claimed:
        job.refresh_from_db(fields=["status"])
        if job.status == TransferJob.Status.FAILED:
            raise InvalidArgument(IMPORT_GONE)
        if job.status == TransferJob.Status.SUCCEEDED:
            raise InvalidArgument("This job has finished: start a new one instead.")
        if job.status == TransferJob.Status.STAGED:
            raise InvalidArgument("This import has not started: confirm it instead.")
        raise InvalidArgument("This job is still under way: follow its progress instead.")
    queue(job.pk)
    job.refresh_from_db()
    return job


# ------------------------------------------------------------------------------------------- running


# The store's import_project: passed in by the task, because the store imports this module.
Importer = Callable[..., "results_team.Imported"]


def run(job_pk: int, *, import_project: Importer) -> str:
    """The task body: claim the job, run it as the credential that asked, record how it ended."""
    now = timezone.now()
    claimed = TransferJob.objects.filter(
        pk=job_pk, status=TransferJob.Status.QUEUED, updated_at__gte=now - STALE_AFTER
    ).update(status=TransferJob.Status.RUNNING, updated_at=now, heartbeat_at=now, attempts=F("attempts") + 1)
    if not claimed:
        return "not queued"
    job = TransferJob.objects.select_related("project").get(pk=job_pk)
    attempt = job.attempts
    with heartbeat(job.pk, attempt):
        try:
            principal = principal_for_credential(job.credential_id, job.team_id)
            if principal is None or principal.user_id != job.user_id:
                raise Forbidden(CREDENTIAL_GONE)
            if job.kind == TransferJob.Kind.EXPORT:
                _run_export(job, principal, attempt)
            else:
                _run_import(job, principal, import_project, attempt)
        except StoreError as error:
            _finish(job.pk, TransferJob.Status.FAILED, attempt, error=error.message)
        except Exception:
            log.exception("transfer job %s failed", job.public_id)
            _finish(job.pk, TransferJob.Status.FAILED, attempt, error=UNEXPECTED)
    return str(TransferJob.objects.filter(pk=job_pk).values_list("status", flat=True).first())


def _mine(job_pk: int, attempt: int) -> Any:
    """The job, while this run still owns it (running, and not retried since)."""
    return TransferJob.objects.filter(pk=job_pk, status=TransferJob.Status.RUNNING, attempts=attempt)


@contextmanager
def heartbeat(job_pk: int, attempt: int) -> Iterator[None]:
    """Write the run's heartbeat every TRANSFER_JOB_HEARTBEAT_SECONDS from a thread of its own, so a
    run busy in one long query or transaction (an import is one) still shows it is alive."""
    stop = threading.Event()
    interval = int(settings.TRANSFER_JOB_HEARTBEAT_SECONDS)

    def beat() -> None:
        try:
            while not stop.wait(interval):
                try:
                    _mine(job_pk, attempt).update(heartbeat_at=timezone.now())
                except DatabaseError:
                    # A database blip: drop the broken connection and try again on the next beat.
                    log.warning("heartbeat of transfer job %s not written", job_pk, exc_info=True)
                    connections.close_all()
        finally:
            # This thread's connection would otherwise hold a pool slot for ever.
            connections.close_all()

    thread = threading.Thread(target=beat, name=f"transfer-heartbeat-{job_pk}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def _progress(job_pk: int, attempt: int) -> Any:
    def report(done: int, total: int) -> None:
        now = timezone.now()
        _mine(job_pk, attempt).update(progress=done, total=total, updated_at=now, heartbeat_at=now)

    return report


def _run_export(job: TransferJob, principal: Principal, attempt: int) -> None:
    if job.project is None:
        raise NotFound("The project of this export no longer exists.")
    document = export_document(principal, job.project, _progress(job.pk, attempt))
    content = export_file(document, job.format).text
    _finish(job.pk, TransferJob.Status.SUCCEEDED, attempt, result=export_counts(document), content=content)


def _run_import(job: TransferJob, principal: Principal, import_project: Importer, attempt: int) -> None:
    document = TransferJob.objects.filter(pk=job.pk).values_list("document", flat=True).get()
    outcome = import_project(principal, document, slug=job.slug or None, name=job.name or None, dry_run=False)
    finish_import(job, outcome, attempt)


def finish_import(job: TransferJob, outcome: results_team.Imported, attempt: int | None = None) -> None:
    """Record an import that ran, in the background (`attempt`: the run's) or within the request."""
    project = Project.objects.filter(team_id=job.team_id, slug=outcome["project"]["slug"]).first()
    _finish(
        job.pk,
        TransferJob.Status.SUCCEEDED,
        attempt,
        result={"project": outcome["project"], "imported": outcome["imported"]},
        project=project,
        progress=job.total,
    )


def _finish(job_pk: int, status: str, attempt: int | None = None, **fields: Any) -> None:
    # An import's document goes once it has succeeded; a failed one keeps it, for a retry (purge
    # deletes it with the job). A background run writes only while the job is still its own.
    now = timezone.now()
    if status == TransferJob.Status.SUCCEEDED:
        fields["document"] = None
    jobs = TransferJob.objects.filter(pk=job_pk) if attempt is None else _mine(job_pk, attempt)
    jobs.update(status=status, updated_at=now, finished_at=now, **fields)


# --------------------------------------------------------------------------------------- the sweeper


def _stalled(now: datetime) -> Q:
    """Running jobs whose worker has been silent too long (rows without a heartbeat: since they moved)."""
    cutoff = now - silent_for()
    beat = Q(heartbeat_at__lt=cutoff) | Q(heartbeat_at__isnull=True, updated_at__lt=cutoff)
    return Q(status=TransferJob.Status.RUNNING) & beat


def _never_started(now: datetime) -> Q:
    return Q(status=TransferJob.Status.QUEUED, updated_at__lt=now - STALE_AFTER)


def sweep(now: datetime | None = None) -> dict[str, int]:
    """Run every minute (memory.tasks.sweep_transfer_jobs): fail the running jobs whose worker went
    silent and the queued ones nobody started in STALE_AFTER, each with a reason a person can act on;
    queue again the queued jobs whose message went unanswered for TRANSFER_JOB_SILENT_SECONDS (a
    second delivery is harmless: only a queued job is claimed)."""
    now = now or timezone.now()
    ended = {"status": TransferJob.Status.FAILED, "updated_at": now, "finished_at": now}
    failed = sum(
        TransferJob.objects.filter(_stalled(now), kind=kind).update(error=reason, **ended)
        for kind, reason in WORKER_STOPPED.items()
    )
    abandoned = TransferJob.objects.filter(_never_started(now)).update(error=STALE, **ended)
    cutoff = now - silent_for()
    unanswered = Q(queued_at__lt=cutoff) | Q(queued_at__isnull=True, updated_at__lt=cutoff)
    lost = list(
        TransferJob.objects.filter(unanswered, status=TransferJob.Status.QUEUED).values_list("pk", flat=True)
    )
    for job_pk in lost:
        queue(job_pk)
    return {"failed": failed + abandoned, "requeued": len(lost)}


def purge(now: Any = None) -> int:
    """Delete jobs (and the files of exports) older than KEEP_FOR."""
    cutoff = (now or timezone.now()) - KEEP_FOR
    deleted, _ = TransferJob.objects.filter(created_at__lt=cutoff).delete()
    return int(deleted)
