"""Export and import pages, and the page that follows a background export or import to its end.

A small export downloads at once through the store's signed link; a larger one, and a larger import,
runs as a job whose page shows a progress bar (htmx polls it every second; without script the page
refreshes itself and offers a Refresh link). A failed job (its worker died, or it stopped on an error)
offers a Retry button, which runs it again under the same page."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from edge.errors import raise_for_access
from memory import store
from memory.store import EXPORT_URL_TTL, InvalidArgument, Principal, StoreError
from web.pages import page
from web.session import team_page
from web.transfer_forms import ExportForm, ImportForm


def project_page_of(principal: Principal, slug: str) -> store.results.ProjectDetail:
    try:
        project = store.get_project(principal, slug)["project"]
    except StoreError as error:
        raise_for_access(error)
        raise
    return project


@team_page
@require_http_methods(["GET", "POST"])
def export(request: HttpRequest, principal: Principal, slug: str) -> HttpResponse:
    project = project_page_of(principal, slug)
    form = ExportForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        try:
            started = store.start_export(principal, slug, form.cleaned_data["format"])
        except StoreError as error:
            raise_for_access(error)
            form.add_error(None, error.message)
        else:
            if started["job"] is None:
                # Small enough to build on download: straight to the signed link.
                return HttpResponseRedirect(started["url"], status=303)
            return redirect("web:transfer-job", started["job"]["id"])
    context = {"project": project, "form": form, "link_minutes": int(EXPORT_URL_TTL.total_seconds() // 60)}
    status = 400 if form.is_bound else 200
    return page(request, "web/export.html", context, principal=principal, status=status)


@team_page
@require_http_methods(["GET", "POST"])
def import_new_project(request: HttpRequest, principal: Principal) -> HttpResponse:
    """The team-level entry: a new project from an export file, for a team with no project yet too."""
    return _import_page(request, principal, None)


@team_page
@require_http_methods(["GET", "POST"])
def import_project(request: HttpRequest, principal: Principal, slug: str) -> HttpResponse:
    return _import_page(request, principal, project_page_of(principal, slug))


def _import_page(
    request: HttpRequest, principal: Principal, project: store.results.ProjectDetail | None
) -> HttpResponse:
    bound = request.method == "POST"
    # A body past what this page takes was refused with 413 before it was read (web.request_size).
    form = ImportForm(request.POST, request.FILES) if bound else ImportForm()
    if bound and form.is_valid():
        data = form.cleaned_data
        try:
            staged = store.start_import(principal, data["file"], slug=data["slug"], name=data["name"])
        except StoreError as error:
            raise_for_access(error)
            _show_refusal(form, error)
        else:
            return redirect("web:transfer-job", staged["job"]["id"])
    context = {"project": project, "form": form, "can_import": principal.can_write}
    status = (413 if form.too_large else 400) if bound else 200
    return page(request, "web/import.html", context, principal=principal, status=status)


def _show_refusal(form: ImportForm, error: StoreError) -> None:
    """Put the store's refusal next to what it is about: the slug or name field, else the file."""
    path = error.details.get("path") if isinstance(error, InvalidArgument) else None
    if path in ("slug", "name"):
        form.add_error(path, error.message)
    elif error.code in ("invalid_argument",):
        form.add_error("file", f"The file cannot be imported: {error.message}")
    else:
        form.add_error(None, error.message)


@team_page
@require_http_methods(["GET", "POST"])
def transfer_job(request: HttpRequest, principal: Principal, job_id: str) -> HttpResponse:
    """GET: the job's state. POST: confirm a staged import."""
    try:
        job = store.transfer_job(principal, job_id)["job"]
    except StoreError as error:
        raise_for_access(error)
        raise
    error_message = ""
    if request.method == "POST":
        try:
            store.confirm_import(principal, job_id)
        except StoreError as error:
            raise_for_access(error)
            error_message = error.message
            job = store.transfer_job(principal, job_id)["job"]
        else:
            return redirect("web:transfer-job", job_id)
    context = {"job": job, "error": error_message}
    if request.headers.get("HX-Request") == "true":
        return render(request, "web/_transfer_status.html", context)
    status = 400 if error_message else 200
    return page(request, "web/transfer_job.html", context, principal=principal, status=status)


@team_page
@require_http_methods(["POST"])
def retry_transfer_job(request: HttpRequest, principal: Principal, job_id: str) -> HttpResponse:
    """Run a failed job again, then follow it on its page; a refusal is shown there."""
    try:
        store.retry_transfer_job(principal, job_id)
    except StoreError as error:
        raise_for_access(error)
        job = store.transfer_job(principal, job_id)["job"]
        context = {"job": job, "error": error.message}
        return page(request, "web/transfer_job.html", context, principal=principal, status=400)
    return redirect("web:transfer-job", job_id)
