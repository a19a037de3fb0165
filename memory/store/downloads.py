"""The download behind export_project's signed URL: the link carries the credential that asked for
it, which must still be live when the link is used."""

from __future__ import annotations

import re

from accounts import audit
from accounts.errors import NotFound, StoreError
from accounts.principal import principal_for_credential
from memory.models import Project, TransferJob
from memory.shapes import results_accounts
from memory.transfer import export_document, read_export_token
from memory.transfer.exporting import FILE_TYPES, ExportFile, export_file

_UNSAFE_FILENAME = re.compile(r"[^A-Za-z0-9._-]")
NO_SUCH_EXPORT = "No such export."


def download_export(token: str) -> results_accounts.ExportDownload:
    """The export file a signed link grants: `filename`, `text` and `content_type`; not_found for
    anything forged, expired or no longer allowed.

    It takes no Principal: the link names the credential that asked for it, which must still be
    live in the project's team with today's scope (a revoked or expired key, a member who left or a
    deactivated user ends the link); the download acts as that credential and is audited so."""
    try:
        grant = read_export_token(token)
    except StoreError:
        raise NotFound(NO_SUCH_EXPORT) from None
    team_id = Project.objects.filter(public_id=grant.project).values_list("team_id", flat=True).first()
    principal = principal_for_credential(grant.credential_id, team_id) if team_id is not None else None
    if principal is None:
        raise NotFound(NO_SUCH_EXPORT)
    principal = principal.with_client("export-download")
    project = Project.objects.visible_to(principal).filter(public_id=grant.project).first()
    if project is None:
        raise NotFound(NO_SUCH_EXPORT)
    try:
        if grant.job is not None:
            # The file a finished export job of this same person produced, in this project.
            job = (
                TransferJob.objects.visible_to(principal)
                .filter(
                    public_id=grant.job,
                    project=project,
                    kind=TransferJob.Kind.EXPORT,
                    status=TransferJob.Status.SUCCEEDED,
                )
                .only("content")
                .first()
            )
            if job is None:
                raise NotFound(NO_SUCH_EXPORT)
            file = ExportFile(job.content, *FILE_TYPES[grant.fmt])
        else:
            file = export_file(export_document(principal, project), grant.fmt)
    except StoreError:
        raise NotFound(NO_SUCH_EXPORT) from None
    audit.record(
        principal,
        "project.exported",
        project_id=project.pk,
        project_slug=project.slug,
        object_id=project.slug,
        format=grant.fmt,
    )
    filename = (_UNSAFE_FILENAME.sub("-", project.slug) or "project") + file.suffix
    return {"filename": filename, "text": file.text, "content_type": file.content_type}
