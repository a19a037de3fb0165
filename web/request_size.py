"""Form posts larger than the server takes get 413 with the limit, before anything reads them.

Django refuses a form body past DATA_UPLOAD_MAX_MEMORY_SIZE (uploaded files aside) with
RequestDataTooBig, which its handler answers as a bare 400; and it spools an upload of any size to
disk before a view can look at it. Ahead of the CSRF check (the first to read a form), this answers
both with 413: an import page upload whose declared length passes what that page takes (the file's
IMPORT_MAX_BYTES and the other fields' DATA_UPLOAD_MAX_MEMORY_SIZE), and any form whose fields pass
DATA_UPLOAD_MAX_MEMORY_SIZE.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.urls import Resolver404, resolve
from django.utils.decorators import sync_and_async_middleware

from edge.sizes import megabytes

FORM_TYPES = ("multipart/form-data", "application/x-www-form-urlencoded")
UPLOAD_VIEWS = frozenset({"web:import", "web:import-new", "web:bring-in"})


def import_body_limit() -> int:
    """The largest body the import page takes: the file, and the form's other fields."""
    return int(settings.IMPORT_MAX_BYTES) + int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0)


def _declared_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def _too_large(message: str) -> HttpResponse:
    # Plain on purpose: no session or database is touched to refuse a body nobody read.
    body = f"<!doctype html><title>Too large (413)</title><h1>Too large</h1><p>{escape(message)}</p>"
    return HttpResponse(body, status=413)


def _refusal(request: HttpRequest) -> HttpResponse | None:
    if request.method != "POST" or request.content_type not in FORM_TYPES:
        return None
    try:
        view = resolve(request.path_info).view_name
    except Resolver404:
        view = ""
    if view in UPLOAD_VIEWS and _declared_length(request) > import_body_limit():
        return _too_large(
            f"The upload is larger than this page takes: a file of at most "
            f"{megabytes(int(settings.IMPORT_MAX_BYTES))}."
        )
    try:
        request.POST  # noqa: B018 - parsing it here is the check
    except RequestDataTooBig:
        limit = megabytes(int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0))
        return _too_large(f"The form is larger than the server takes: at most {limit} besides files.")
    return None


@sync_and_async_middleware
def refuse_oversized_forms(get_response: Callable[[HttpRequest], Any]) -> Callable[[HttpRequest], Any]:
    if iscoroutinefunction(get_response):

        async def middleware(request: HttpRequest) -> HttpResponseBase:
            # Parsing a form writes its files to disk: off the event loop.
            refusal = await sync_to_async(_refusal)(request) if request.method == "POST" else None
            if refusal is not None:
                return refusal
            response: HttpResponseBase = await get_response(request)
            return response

        return middleware

    def sync_middleware(request: HttpRequest) -> HttpResponseBase:
        refusal = _refusal(request)
        if refusal is not None:
            return refusal
        response: HttpResponseBase = get_response(request)
        return response

    return sync_middleware
