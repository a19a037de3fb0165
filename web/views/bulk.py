"""Bulk actions on the notes selected in the browser: a confirmation page first, then one store call
(store.bulk_update_notes) whose every failure is listed in the result message."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from edge.errors import http_status
from memory import store
from memory.store import Forbidden, NotFound, Principal, StoreError
from web.pages import page
from web.project_forms import BulkForm, store_error_on
from web.session import team_page
from web.views.projects import project_or_404, project_url, refuse

ACTION_WORDS = {"retag": "retagged", "mark_historical": "marked historical", "delete": "deleted"}
MAX_LISTED_FAILURES = 10


def _back(slug: str, filters: str) -> str:
    """The browser page the selection was made on; the query is re-encoded, never passed through."""
    query = QueryDict(filters, mutable=True)
    query.pop("cursor", None)
    return project_url(slug, query.urlencode())


def _selected(principal: Principal, ids: list[str]) -> dict[str, Any]:
    found = store.get_notes(principal, ids, include_body=False)
    return {"notes": found["notes"], "missing": found["missing"]}


def _report(request: HttpRequest, result: dict[str, Any], titles: dict[str, str]) -> None:
    done = len(result["updated"])
    word = ACTION_WORDS[result["action"]]
    if done:
        messages.success(request, f"{done} note{'s' if done != 1 else ''} {word}.")
    if result["unchanged"]:
        count = len(result["unchanged"])
        messages.info(
            request, f"{count} note{'s were' if count != 1 else ' was'} already as asked: not changed."
        )
    for failure in result["failed"][:MAX_LISTED_FAILURES]:
        name = titles.get(failure["id"], failure["id"])
        messages.error(request, f"Not {word}: “{name}” — {failure['message']}")
    hidden = len(result["failed"]) - MAX_LISTED_FAILURES
    if hidden > 0:
        messages.error(request, f"…and {hidden} more not {word}.")


@team_page
@require_POST
def project_bulk(request: HttpRequest, principal: Principal, slug: str) -> HttpResponse:
    """Without `confirm`: the confirmation page. With it: the change, then back to the browser."""
    project = project_or_404(principal, slug)
    if not principal.can_write:
        raise PermissionDenied(principal.write_refusal().message)
    form = BulkForm(request.POST)
    back = _back(project["slug"], request.POST.get("filters", ""))
    context: dict[str, Any] = {"project": project, "form": form, "back": back, "selection": None}
    if not form.is_valid():
        return page(request, "web/bulk_confirm.html", context, principal=principal, status=400)
    selection = _selected(principal, form.cleaned_data["ids"])
    context["selection"] = selection
    context["versions"] = form.cleaned_data["versions"]
    if request.POST.get("confirm") != "yes":
        return page(request, "web/bulk_confirm.html", context, principal=principal)
    try:
        result = store.bulk_update_notes(principal, project["slug"], **form.store_arguments())
    except (NotFound, Forbidden) as error:
        refuse(error)
    except StoreError as error:
        store_error_on(form, error, {"ids": "note"})
        status = http_status(error)
        return page(request, "web/bulk_confirm.html", context, principal=principal, status=status)
    _report(request, result, {note["id"]: note["title"] for note in selection["notes"]})
    return redirect(back)
