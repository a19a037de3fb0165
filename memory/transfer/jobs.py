"""Exports and imports that run in the background, followed by a page through their TransferJob row.

The store creates a job and queues it once its transaction commits; `run` is the task body. Only a
queued job starts (a conditional update claims it, so a second delivery does nothing). The worker
acts as the credential that asked, if it is still live, and every run ends in `succeeded` or `failed`
with a message. An import is one store call, one transaction: a failed import wrote nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts import scheduling
from accounts.errors import Forbidden, NotFound, StoreError
from accounts.principal import Principal, principal_for_credential
from memory.models import Note, Project, TransferJob
from memory.notes.lifecycle import rfc3339
from memory.notes.scoping import echo
from memory.shapes import results_team
from memory.transfer.exporting import export_counts, export_document, export_file, signed_export_url

log = logging.getLogger(__name__)

# A job that has not moved for this long is reported failed, and a queued one no longer starts:
# its worker died or never came, and the person should not wait on it for ever.
STALE_AFTER = timedelta(minutes=30)
# Finished jobs (and the files exports keep) are deleted after this (memory.tasks.purge_transfer_jobs).
KEEP_FOR = timedelta(days=1)
UNEXPECTED = "The job stopped on an unexpected error; nothing was imported. Try again, or ask support."
STALE = "The job stopped without finishing (its worker went away); nothing was imported. Start it again."
CREDENTIAL_GONE = "The sign-in or key that started this job is no longer valid here; start it again."


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
        raise NotFound(f"No transfer job {echo(job_id)} of yours in this team.")
    return job


def _stale(job: TransferJob) -> bool:
    active = job.status in (TransferJob.Status.QUEUED, TransferJob.Status.RUNNING)
    return active and job.updated_at < timezone.now() - STALE_AFTER


def job_dict(principal: Principal, job: TransferJob) -> results_team.TransferJob:
    """The job as a page shows it; a finished export carries a fresh signed link to its file."""
    status, error = job.status, job.error
    if _stale(job):
        status, error = TransferJob.Status.FAILED, STALE
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
        "url": url,
        "expires_at": expires_at,
        "created_at": rfc3339(job.created_at),
        "finished_at": rfc3339(job.finished_at),
    }


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

    def enqueue() -> None:
        try:
            scheduling.enqueue("memory.tasks.run_transfer_job", job_pk)
        except Exception:
            log.exception("could not enqueue transfer job %s", job_pk)
            _finish(
                job_pk, TransferJob.Status.FAILED, error="The job could not be queued; try again shortly."
            )

    transaction.on_commit(enqueue)


# ------------------------------------------------------------------------------------------- running


# The store's import_project: passed in by the task, because the store imports this module.
Importer = Callable[..., "results_team.Imported"]


def run(job_pk: int, *, import_project: Importer) -> str:
    """The task body: claim the job, run it as the credential that asked, record how it ended."""
    now = timezone.now()
    claimed = TransferJob.objects.filter(
        pk=job_pk, status=TransferJob.Status.QUEUED, updated_at__gte=now - STALE_AFTER
    ).update(status=TransferJob.Status.RUNNING, updated_at=now)
    if not claimed:
        return "not queued"
    job = TransferJob.objects.select_related("project").get(pk=job_pk)
    try:
        principal = principal_for_credential(job.credential_id, job.team_id)
        if principal is None or principal.user_id != job.user_id:
            raise Forbidden(CREDENTIAL_GONE)
        if job.kind == TransferJob.Kind.EXPORT:
            _run_export(job, principal)
        else:
            _run_import(job, principal, import_project)
    except StoreError as error:
        _finish(job.pk, TransferJob.Status.FAILED, error=error.message)
    except Exception:
        log.exception("transfer job %s failed", job.public_id)
        _finish(job.pk, TransferJob.Status.FAILED, error=UNEXPECTED)
    return str(TransferJob.objects.filter(pk=job_pk).values_list("status", flat=True).first())


def _progress(job_pk: int) -> Any:
    def report(done: int, total: int) -> None:
        TransferJob.objects.filter(pk=job_pk, status=TransferJob.Status.RUNNING).update(
            progress=done, total=total, updated_at=timezone.now()
        )

    return report


def _run_export(job: TransferJob, principal: Principal) -> None:
    if job.project is None:
        raise NotFound("The project of this export no longer exists.")
    document = export_document(principal, job.project, _progress(job.pk))
    content = export_file(document, job.format).text
    _finish(job.pk, TransferJob.Status.SUCCEEDED, result=export_counts(document), content=content)


def _run_import(job: TransferJob, principal: Principal, import_project: Importer) -> None:
    document = TransferJob.objects.filter(pk=job.pk).values_list("document", flat=True).get()
    outcome = import_project(principal, document, slug=job.slug or None, name=job.name or None, dry_run=False)
    finish_import(job, outcome)


def finish_import(job: TransferJob, outcome: results_team.Imported) -> None:
    """Record an import that ran within the request (a small one)."""
    project = Project.objects.filter(team_id=job.team_id, slug=outcome["project"]["slug"]).first()
    _finish(
        job.pk,
        TransferJob.Status.SUCCEEDED,
        result={"project": outcome["project"], "imported": outcome["imported"]},
        project=project,
        progress=job.total,
    )


def _finish(job_pk: int, status: str, **fields: Any) -> None:
    # The document of an import is dropped whatever the outcome: it is kept only until it has run.
    now = timezone.now()
    TransferJob.objects.filter(pk=job_pk).update(
        status=status, document=None, updated_at=now, finished_at=now, **fields
    )


def purge(now: Any = None) -> int:
    """Delete jobs (and the files of exports) older than KEEP_FOR."""
    cutoff = (now or timezone.now()) - KEEP_FOR
    deleted, _ = TransferJob.objects.filter(created_at__lt=cutoff).delete()
    return int(deleted)
