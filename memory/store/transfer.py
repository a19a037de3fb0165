"""Export and import of whole projects."""

from __future__ import annotations

from typing import Any, Literal, overload

from django.db import transaction
from django.utils import timezone

from accounts import audit
from accounts.errors import InvalidArgument
from accounts.principal import Principal
from memory import idempotency, inputs, registry, transfer, validation
from memory.models import TransferJob
from memory.notes.lifecycle import rfc3339
from memory.notes.scoping import project_for
from memory.shapes import results_team
from memory.transfer import jobs


@registry.read
def export_project(
    principal: Principal, project: str, format: str | None = "json"
) -> results_team.ExportLink:
    target = project_for(principal, project)
    fmt = "json" if format is None else format
    validation.choice(fmt, "format", inputs.EXPORT_FORMATS)
    counts = transfer.export_counts(transfer.export_document(principal, target))
    url, expires_at = transfer.signed_export_url(principal, target, fmt)
    audit.record_after_read(
        principal,
        "project.export_requested",
        project_id=target.pk,
        project_slug=target.slug,
        object_id=target.slug,
        format=fmt,
    )
    return {
        "project": target.slug,
        "format": fmt,
        "counts": counts,
        "url": url,
        "expires_at": rfc3339(expires_at),
    }


@registry.read
def export_content(
    principal: Principal, project: str, format: str | None = "json"
) -> results_team.ExportContent:
    """The export itself, for callers that download it in the same request (REST): the JSON document
    (complete and re-importable) or the Markdown text, with a file name."""
    target = project_for(principal, project)
    fmt = "json" if format is None else format
    validation.choice(fmt, "format", inputs.EXPORT_FORMATS)
    if fmt == "markdown":
        content: Any = transfer.export_markdown(principal, target)
        filename = f"{target.slug}.md"
    else:
        content = transfer.export_document(principal, target)
        filename = f"{target.slug}.knownbase.json"
    audit.record_after_read(
        principal,
        "project.exported",
        project_id=target.pk,
        project_slug=target.slug,
        object_id=target.slug,
        format=fmt,
    )
    return {"project": target.slug, "format": fmt, "filename": filename, "content": content}


@overload
def import_project(
    principal: Principal,
    document: Any,
    slug: str | None = None,
    name: str | None = None,
    dry_run: Literal[False] | None = False,
    idempotency_key: str | None = None,
) -> results_team.Imported: ...


@overload
def import_project(
    principal: Principal,
    document: Any,
    slug: str | None = None,
    name: str | None = None,
    *,
    dry_run: Literal[True],
    idempotency_key: str | None = None,
) -> results_team.ImportDryRun: ...


@overload
def import_project(
    principal: Principal,
    document: Any,
    slug: str | None = None,
    name: str | None = None,
    dry_run: bool | None = False,
    idempotency_key: str | None = None,
) -> results_team.Imported | results_team.ImportDryRun: ...


@registry.write
def import_project(
    principal: Principal,
    document: Any,
    slug: str | None = None,
    name: str | None = None,
    dry_run: bool | None = False,
    idempotency_key: str | None = None,
) -> results_team.Imported | results_team.ImportDryRun:
    """Create a project from an export document. With `dry_run`, validate everything (document, slug,
    plan caps, screening) and report what would be created, writing nothing."""
    rehearsal = validation.flag(dry_run, "dry_run")

    def work() -> results_team.Imported | results_team.ImportDryRun:
        return transfer.import_document(principal, document, slug=slug, name=name, dry_run=rehearsal)

    if rehearsal:
        # A dry run writes nothing, so it is safe to retry as it is; its key is not kept, and stays
        # free for the import it rehearses.
        return work()
    # The request is compared as sent (the document's key order does not matter): parsing it first
    # would fail a retry on the slug the first import took.
    return idempotency.run_once(
        principal,
        "import_project",
        idempotency_key,
        work,
        project=None,
        request={"document": document, "slug": slug, "name": name},
    )


# ---------------------------------------------------------------------- exports and imports a page follows


@registry.read
def start_export(
    principal: Principal, project: str, format: str | None = "json"
) -> results_team.ExportReady | results_team.ExportQueued:
    """An export for the web page. A project of at most TRANSFER_TASK_THRESHOLD visible notes gets its
    signed link at once (export_project's answer, with `job` None); a larger one is exported by a
    background job (`job`, followed with transfer_job, whose answer carries the link when done).

    A read, so viewers and read-only keys may export: the job row it adds is the caller's own
    bookkeeping, never memory."""
    target = project_for(principal, project)
    fmt = "json" if format is None else format
    validation.choice(fmt, "format", inputs.EXPORT_FORMATS)
    notes = jobs.visible_notes(principal, target)
    if notes <= jobs.threshold():
        ready = export_project(principal, project, fmt)
        return {**ready, "job": None}
    job = jobs.create_export(principal, target, fmt, notes)
    audit.record_after_read(
        principal,
        "project.export_requested",
        project_id=target.pk,
        project_slug=target.slug,
        object_id=target.slug,
        format=fmt,
        job=job.public_id,
    )
    return {"project": target.slug, "format": fmt, "url": None, "job": jobs.job_dict(principal, job)}


@registry.write
def start_import(
    principal: Principal, document: Any, slug: str | None = None, name: str | None = None
) -> results_team.TransferJobResult:
    """Check an export document with a dry run (every check of import_project, writing nothing of
    it) and keep it, staged, until confirm_import. The job's `result` is the dry run's report."""
    report = import_project(principal, document, slug=slug, name=name, dry_run=True)
    job = jobs.stage_import(principal, document, slug, name, report)
    return {"job": jobs.job_dict(principal, job)}


@registry.write
def confirm_import(principal: Principal, job: str) -> results_team.TransferJobResult:
    """Import a staged document: within this call when it holds at most TRANSFER_TASK_THRESHOLD notes,
    else as a background job (follow it with transfer_job). Screened and checked again as it runs."""
    staged = jobs.job_for(principal, job)
    # A conditional update: of two confirmations sent at once, the second waits for the first and
    # then finds nothing staged (and an import that fails rolls this back: it stays staged).
    claimed = TransferJob.objects.filter(
        pk=staged.pk, kind=TransferJob.Kind.IMPORT, status=TransferJob.Status.STAGED
    ).update(status=TransferJob.Status.QUEUED, updated_at=timezone.now())
    if not claimed:
        raise InvalidArgument("This import has started already: follow its progress instead.")
    if staged.total > jobs.threshold():
        jobs.queue(staged.pk)
    else:
        document = TransferJob.objects.filter(pk=staged.pk).values_list("document", flat=True).get()
        outcome = import_project(
            principal, document, slug=staged.slug or None, name=staged.name or None, dry_run=False
        )
        jobs.finish_import(staged, outcome)
    staged.refresh_from_db()
    return {"job": jobs.job_dict(principal, staged)}


@registry.read
def transfer_job(principal: Principal, job: str) -> results_team.TransferJobResult:
    """One of the caller's export or import jobs: status, progress, outcome, and for a finished
    export a fresh signed download link."""
    return {"job": jobs.job_dict(principal, jobs.job_for(principal, job))}


@registry.read
def retry_transfer_job(
    principal: Principal, job: str, idempotency_key: str | None = None
) -> results_team.TransferJobResult:
    """Run a failed export or import of the caller's again (its worker died, or it stopped on an
    error), as the caller; the same job id follows it. A read, as start_export is, so viewers retry
    their exports; an import needs write access, and the document it keeps until it succeeds."""

    def work() -> results_team.TransferJobResult:
        retried = jobs.retry(principal, job)
        project = retried.project
        if retried.kind == TransferJob.Kind.EXPORT and project is not None:
            audit.record_after_read(
                principal,
                "project.export_requested",
                project_id=project.pk,
                project_slug=project.slug,
                object_id=project.slug,
                format=retried.format,
                job=retried.public_id,
                retry=True,
            )
        return {"job": jobs.job_dict(principal, retried)}

    with transaction.atomic():
        return idempotency.run_once(
            principal, "retry_transfer_job", idempotency_key, work, project=None, request={"job": job}
        )
