"""Export and import of whole projects."""

from __future__ import annotations

from typing import Any

from accounts import audit
from accounts.principal import Principal
from memory import idempotency, inputs, registry, transfer, validation
from memory.notes import rfc3339
from memory.scoping import project_for


@registry.read
def export_project(principal: Principal, project: str, format: str | None = "json") -> dict[str, Any]:
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
def export_content(principal: Principal, project: str, format: str | None = "json") -> dict[str, Any]:
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


@registry.write
def import_project(
    principal: Principal,
    document: Any,
    slug: str | None = None,
    name: str | None = None,
    dry_run: bool | None = False,
    idempotency_key: str | None = None,
) -> dict[str, Any]:
    """Create a project from an export document. With `dry_run`, validate everything (document, slug,
    plan caps, screening) and report what would be created, writing nothing."""
    rehearsal = validation.flag(dry_run, "dry_run")

    def work() -> dict[str, Any]:
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
