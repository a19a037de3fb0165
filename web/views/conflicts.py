"""The conflicts queue: both sides of each conflict side by side, settled with one click through the store."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.dateparse import parse_datetime
from django.utils.http import urlencode
from django.views.decorators.http import require_GET, require_POST

from edge.errors import raise_for_access
from memory import inputs, store
from memory.store import Principal, StoreError
from web.pages import page
from web.session import team_page

RESOLUTION_LABELS = inputs.RESOLUTION_LABELS
# A note disputed on its own has no B: the same resolutions, worded for one note.
LONE_LABELS = {"both_true": "Keep it (not disputed)", "a_historical": "Mark it historical"}
DONE = {
    "a_supersedes_b": "“{a}” now supersedes “{b}”.",
    "b_supersedes_a": "“{b}” now supersedes “{a}”.",
    "both_true": "Both stand: “{a}” and “{b}” are no longer in conflict.",
    "a_historical": "“{a}” is historical; “{b}” stands.",
    "b_historical": "“{b}” is historical; “{a}” stands.",
}
LONE_DONE = {"both_true": "“{a}” is current again.", "a_historical": "“{a}” is historical."}


class ResolveForm(forms.Form):
    a = forms.CharField(max_length=inputs.NOTE_ID.max_length)
    b = forms.CharField(max_length=inputs.NOTE_ID.max_length, required=False)
    resolution = forms.ChoiceField(choices=[(r, RESOLUTION_LABELS[r]) for r in inputs.RESOLUTIONS])
    a_version = forms.IntegerField(
        min_value=int(inputs.VERSION.minimum), max_value=int(inputs.VERSION.maximum), required=False
    )
    b_version = forms.IntegerField(
        min_value=int(inputs.VERSION.minimum), max_value=int(inputs.VERSION.maximum), required=False
    )


@team_page
@require_GET
def conflicts(request: HttpRequest, principal: Principal) -> HttpResponse:
    project = request.GET.get("project") or None
    offset = request.GET.get("offset", "")
    try:
        queue = store.list_conflicts(
            principal, project=project, offset=int(offset) if offset.isdigit() else None
        )
    except StoreError as error:
        if error.code == "not_found":
            raise Http404(error.message) from None
        messages.error(request, error.message)
        return redirect("web:conflicts")
    projects = store.list_projects(principal)["projects"]
    later = _queue_url(project, queue["next_offset"]) if queue["next_offset"] is not None else None
    context = {
        "conflicts": [_shown(conflict) for conflict in queue["conflicts"]],
        "total": queue["total"],
        "projects": projects,
        "project": project,
        "later": later,
        "can_resolve": principal.can_write,
    }
    return page(request, "web/conflicts.html", context, principal=principal)


@team_page
@require_POST
def conflict_resolve(request: HttpRequest, principal: Principal) -> HttpResponse:
    form = ResolveForm(request.POST)
    if not form.is_valid():
        return _answer(request, "That resolution was not understood; reload the conflicts and try again.")
    data = form.cleaned_data
    try:
        result = store.resolve_conflict(
            principal,
            data["a"],
            data["b"] or None,
            data["resolution"],
            a_version=data["a_version"],
            b_version=data["b_version"],
        )
    except StoreError as error:
        raise_for_access(error)
        return _answer(request, error.message)
    titles = {"a": result["a"]["title"], "b": result["b"]["title"] if result["b"] else ""}
    wording = DONE if result["b"] else LONE_DONE
    return _answer(request, "Resolved: " + wording[data["resolution"]].format(**titles), resolved=True)


def _answer(request: HttpRequest, message: str, *, resolved: bool = False) -> HttpResponse:
    """htmx swaps the conflict for the outcome; without script, the queue reloads with a message."""
    if request.headers.get("HX-Request") == "true":
        return render(request, "web/_conflict_outcome.html", {"message": message, "resolved": resolved})
    (messages.success if resolved else messages.error)(request, message)
    return redirect(_queue_url(request.POST.get("project") or None))


def _queue_url(project: str | None, offset: int | None = None) -> str:
    query: dict[str, str | int] = {}
    if project:
        query["project"] = project
    if offset:
        query["offset"] = offset
    return reverse("web:conflicts") + (f"?{urlencode(query)}" if query else "")


def _shown(conflict: store.results_review.Conflict) -> dict[str, Any]:
    """The store's conflict with what the template needs: times to format and button labels."""
    labels = RESOLUTION_LABELS if conflict["b"] else LONE_LABELS
    a, b = (
        {**side, "updated": parse_datetime(side["updated_at"])} if side is not None else None
        for side in (conflict["a"], conflict["b"])
    )
    sides = [side for side in (conflict["a"], conflict["b"]) if side is not None]
    return {
        **conflict,
        "a": a,
        "b": b,
        "key": "-".join(side["id"] for side in sides),
        "buttons": [(resolution, labels[resolution]) for resolution in conflict["resolutions"]],
    }
