"""The download behind export_project's signed URL (the store checks the link and its credential)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from memory import store
from memory.store import StoreError


@require_GET
def download_export(request: HttpRequest, token: str) -> HttpResponse:
    """The export a signed token grants, or 404 for anything forged, expired or no longer allowed."""
    try:
        file = store.download_export(token)
    except StoreError:
        raise Http404("No such export.") from None
    response = HttpResponse(file["text"], content_type=file["content_type"])
    response["Content-Disposition"] = f'attachment; filename="{file["filename"]}"'
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "no-referrer"
    response["X-Content-Type-Options"] = "nosniff"
    return response
