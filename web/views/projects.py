"""Project pages: the note browser (filters, search, sort, pages), creating a project, its settings and
a preview of exactly what get_context hands an agent. Every read and write is a store call."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any, NoReturn

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from edge.errors import http_status, raise_for_access
from memory import store
from memory.store import Forbidden, NotFound, Principal, StoreError
from web.pages import page
from web.project_forms import (
    RELEVANCE,
    ContextPreviewForm,
    NoteFilterForm,
    ProjectForm,
    ProjectSettingsForm,
    store_error_on,
)
from web.session import team_page

PAGE_SIZE = 50
# The store's argument names that differ from the filter form's fields.
FILTER_ARGUMENTS = {
    "types": "type",
    "statuses": "status",
    "tags": "tag",
    "paths": "path",
    "include_deleted": "deleted",
}
SEARCH_MODES = {
    "vector": "semantic search (vector index)",
    "scan": "semantic search (ranked scan)",
    "fulltext": "full-text search",
    "substring": "substring match",
}


def refuse(error: StoreError) -> NoReturn:
    """A store refusal that is the page's answer, not a form error: 404 or 403."""
    raise_for_access(error)
    raise error


def project_or_404(principal: Principal, slug: str) -> store.results.ProjectDetail:
    try:
        project = store.get_project(principal, slug, count_notes=False)["project"]
    except (NotFound, Forbidden) as error:
        refuse(error)
    return project


def when(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


_SAMPLE_NOTE_ID = "n_0000000000000000"


def note_url(slug: str) -> Callable[[str], str]:
    """The note page's address for a note of this project, reversed once per page, not per row."""
    sample = reverse("web:note", args=(slug, _SAMPLE_NOTE_ID))
    return lambda note_id: sample.replace(_SAMPLE_NOTE_ID, note_id)


def _authors(principal: Principal) -> list[str]:
    return [member["email"] for member in store.list_members(principal)["members"]]


def _browse(principal: Principal, slug: str, form: NoteFilterForm) -> dict[str, Any]:
    """The page of notes the form asks for, as the results template shows it."""
    link = note_url(slug)
    if form.searching:
        found = store.search_notes(
            principal, project=slug, semantic=True, limit=PAGE_SIZE, **form.search_arguments()
        )
        rows = [
            {**row, "updated": when(row["updated_at"]), "url": link(row["id"])} for row in found["results"]
        ]
        arguments = form.search_arguments()
        return {
            "searching": True,
            "query": arguments["query"],
            "filtered": any(arguments[name] for name in ("types", "statuses", "tags")),
            "rows": rows,
            "search_mode": found["search_mode"],
            "search_mode_label": SEARCH_MODES.get(found["search_mode"], found["search_mode"]),
            "ignored": form.ignored_while_searching(),
            "sort_label": RELEVANCE,
        }
    cursor = form.cleaned_data["cursor"] or None
    listed = store.list_notes(principal, slug, limit=PAGE_SIZE, cursor=cursor, **form.list_arguments())
    rows = [{**row, "updated": when(row["updated_at"]), "url": link(row["id"])} for row in listed["notes"]]
    return {
        "searching": False,
        "rows": rows,
        "total": listed["total"],
        "next_cursor": listed["next_cursor"],
        "continued": cursor is not None,
    }


def _page_link(request: HttpRequest, **changes: str | None) -> str:
    query = request.GET.copy()
    for name, value in changes.items():
        if value is None:
            query.pop(name, None)
        else:
            query[name] = value
    encoded = query.urlencode()
    return f"?{encoded}" if encoded else "?"


@team_page
@require_GET
def project_page(request: HttpRequest, principal: Principal, slug: str) -> HttpResponse:
    project = project_or_404(principal, slug)
    # Always bound: an empty question is a valid one (every note, recently updated first).
    form = NoteFilterForm(request.GET, authors=_authors(principal))
    results: dict[str, Any] = {}
    status = 200
    if not form.is_valid():
        status = 400
    else:
        try:
            results = _browse(principal, project["slug"], form)
        except (NotFound, Forbidden) as error:
            refuse(error)
        except StoreError as error:
            store_error_on(form, error, FILTER_ARGUMENTS)
            status = http_status(error)
    context = {
        "project": project,
        "form": form,
        "results": results,
        "can_write": principal.can_write,
        "filters": request.GET.urlencode(),
        "next_link": _page_link(request, cursor=results.get("next_cursor"))
        if results.get("next_cursor")
        else "",
        "first_link": _page_link(request, cursor=None),
    }
    htmx = getattr(request, "htmx", None)
    if htmx and not htmx.history_restore_request:
        # The filter form swaps only the results; the full page answers every other request.
        response = render(request, "web/_note_results.html", context, status=status)
    else:
        response = page(request, "web/project.html", context, principal=principal, status=status)
    response["Vary"] = "HX-Request"
    return response


@team_page
@require_http_methods(["GET", "POST"])
def project_create(request: HttpRequest, principal: Principal) -> HttpResponse:
    if not principal.can_write:
        raise PermissionDenied("Viewers cannot create projects.")
    form = ProjectForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                created = store.create_project(
                    principal,
                    data["name"],
                    slug=data["slug"] or None,
                    summary=data["summary"],
                    agent_instructions=data["agent_instructions"],
                )
            except Forbidden as error:
                refuse(error)
            except StoreError as error:
                store_error_on(form, error)
                status = http_status(error)
            else:
                slug = created["project"]["slug"]
                messages.success(request, f"Project “{created['project']['name']}” created.")
                return redirect("web:project", slug=slug)
    return page(request, "web/project_create.html", {"form": form}, principal=principal, status=status)


@team_page
@require_http_methods(["GET", "POST"])
def project_settings(request: HttpRequest, principal: Principal, slug: str) -> HttpResponse:
    project = project_or_404(principal, slug)
    initial = {
        "name": project["name"],
        "slug": project["slug"],
        "summary": project["summary"],
        "agent_instructions": project["agent_instructions"],
        "default_context_budget": project["default_context_budget"],
    }
    read_only = not principal.can_write
    status = 200
    if request.method == "POST":
        if read_only:
            raise PermissionDenied("Viewers can read the project's settings but not change them.")
        form = ProjectSettingsForm(request.POST, initial=initial)
        status = 400
        if form.is_valid():
            changes = form.changes()
            if not changes:
                messages.info(request, "Nothing changed.")
                return redirect("web:project-settings", slug=project["slug"])
            try:
                updated = store.update_project(principal, project["slug"], **changes)["project"]
            except (NotFound, Forbidden) as error:
                refuse(error)
            except StoreError as error:
                store_error_on(form, error)
            else:
                messages.success(request, "Settings saved.")
                return redirect("web:project-settings", slug=updated["slug"])
    else:
        form = ProjectSettingsForm(initial=initial, read_only=read_only)
    context = {"project": project, "form": form, "read_only": read_only}
    return page(request, "web/project_settings.html", context, principal=principal, status=status)


def _entries(section: Any) -> list[dict[str, Any]]:
    return [entry for entry in section if isinstance(entry, dict)] if isinstance(section, list) else []


@team_page
@require_GET
def context_preview(request: HttpRequest, principal: Principal, slug: str) -> HttpResponse:
    project = project_or_404(principal, slug)
    form = ContextPreviewForm(request.GET or None)
    context: dict[str, Any] = {"project": project, "form": form}
    status = 200
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        try:
            response = store.get_context(
                principal,
                project["slug"],
                query=data["query"] or None,
                detail=data["detail"] or None,
                max_tokens=data["max_tokens"],
            )
        except (NotFound, Forbidden) as error:
            refuse(error)
        except StoreError as error:
            store_error_on(form, error)
            status = http_status(error)
        else:
            context["answer"] = response
            link = note_url(project["slug"])
            context["sections"] = [
                (name, [{**entry, "url": link(str(entry.get("id", "")))} for entry in _entries(entries)])
                for name, entries in response.get("sections", {}).items()
            ]
            context["raw"] = json.dumps(response, indent=2, ensure_ascii=False)
    elif form.is_bound:
        status = 400
    return page(request, "web/context_preview.html", context, principal=principal, status=status)


def project_url(slug: str, query: str = "") -> str:
    url = reverse("web:project", kwargs={"slug": slug})
    return f"{url}?{query}" if query else url
