"""The download behind export_project's signed URL: the link carries the credential that asked for it,
which must still be live when the link is used."""

from __future__ import annotations

import re

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from accounts import audit
from accounts.errors import StoreError
from accounts.principal import principal_for_credential
from memory.models import Project, TransferJob
from memory.transfer import export_document, read_export_token
from memory.transfer.exporting import FILE_TYPES, ExportFile, export_file

_UNSAFE_FILENAME = re.compile(r"[^A-Za-z0-9._-]")


@require_GET
def download_export(request: HttpRequest, token: str) -> HttpResponse:
    """The export a signed token grants, or 404 for anything forged, expired or no longer allowed."""
    try:
        grant = read_export_token(token)
    except StoreError:
        raise Http404("No such export.") from None
    team_id = Project.objects.filter(public_id=grant.project).values_list("team_id", flat=True).first()
    # The credential that asked must still be live in the project's team, with today's scope: a
    # revoked or expired key, a member who left or a deactivated user ends the link.
    principal = principal_for_credential(grant.credential_id, team_id) if team_id is not None else None
    if principal is None:
        raise Http404("No such export.")
    principal = principal.with_client("export-download")
    project = Project.objects.visible_to(principal).filter(public_id=grant.project).first()
    if project is None:
        raise Http404("No such export.")
    filename = _UNSAFE_FILENAME.sub("-", project.slug) or "project"
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
                raise Http404("No such export.")
            file = ExportFile(job.content, *FILE_TYPES[grant.fmt])
        else:
            file = export_file(export_document(principal, project), grant.fmt)
    except StoreError:
        raise Http404("No such export.") from None
    response = HttpResponse(file.text, content_type=file.content_type)
    filename += file.suffix
    audit.record(
        principal,
        "project.exported",
        project_id=project.pk,
        project_slug=project.slug,
        object_id=project.slug,
        format=grant.fmt,
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "no-referrer"
    response["X-Content-Type-Options"] = "nosniff"
    return response
