"""Export and import of whole projects."""

from __future__ import annotations

from typing import Any

from accounts import audit
from accounts.principal import Principal
from memory import inputs, registry, transfer, validation
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


@registry.write
def import_project(
    principal: Principal, document: Any, slug: str | None = None, name: str | None = None
) -> dict[str, Any]:
    return transfer.import_document(principal, document, slug=slug, name=name)
