"""Bring memory in: upload or paste rules files or another tool's export, see what each note would
become (created, duplicate, merged, contradicting, refused), then confirm. Nothing is written before
the confirmation; the confirmation writes exactly what the preview showed, judged again."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_http_methods

from edge.errors import raise_for_access
from memory import store
from memory.store import Principal, StoreError
from web.intake_forms import BringInForm, ConfirmBringInForm
from web.pages import page
from web.session import team_page
from web.views.transfer import project_page_of

TEMPLATE = "web/bring_in.html"


@team_page
@require_http_methods(["GET", "POST"])
def bring_in(request: HttpRequest, principal: Principal, slug: str) -> HttpResponse:
    project = project_page_of(principal, slug)
    context: dict[str, object] = {"project": project, "can_write": principal.can_write}
    if request.method == "POST" and "files_json" in request.POST:
        return _confirm(request, principal, slug, context)
    form = BringInForm(request.POST, request.FILES) if request.method == "POST" else BringInForm()
    context["form"] = form
    if not form.is_bound:
        return page(request, TEMPLATE, context, principal=principal)
    if form.is_valid():
        files = form.cleaned_data["files"]
        try:
            report = store.import_memory(
                principal, slug, files, format=form.cleaned_data["format"], dry_run=True
            )
        except StoreError as error:
            raise_for_access(error)
            form.add_error(None, error.message)
        else:
            context["report"] = report
            context["confirm"] = ConfirmBringInForm(
                initial={
                    "files_json": json.dumps(files, ensure_ascii=False),
                    "format": report["format"],
                    "skip_refused": bool(report["counts"]["refused"]),
                }
            )
            response = page(request, TEMPLATE, context, principal=principal)
            # The preview carries the upload back for the confirmation: never kept by a cache.
            response["Cache-Control"] = "no-store"
            return response
    return page(request, TEMPLATE, context, principal=principal, status=400)


def _confirm(
    request: HttpRequest, principal: Principal, slug: str, context: dict[str, object]
) -> HttpResponse:
    confirm = ConfirmBringInForm(request.POST)
    context["form"] = BringInForm()
    if confirm.is_valid():
        data = confirm.cleaned_data
        try:
            context["report"] = store.import_memory(
                principal, slug, data["files_json"], format=data["format"], skip_refused=data["skip_refused"]
            )
        except StoreError as error:
            raise_for_access(error)
            context["error"] = error.message
        else:
            return page(request, TEMPLATE, context, principal=principal)
    else:
        context["error"] = "; ".join(str(message) for errors in confirm.errors.values() for message in errors)
    return page(request, TEMPLATE, context, principal=principal, status=400)
