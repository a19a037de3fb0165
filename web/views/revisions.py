"""A note's revision history: the list, one revision side by side with the one before it or with the
current version, and restoring a revision (which the store keeps as a new version)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from memory import inputs, store
from memory.store import NotFound, Principal, StoreError, VersionConflict
from web.diffs import field_changes, side_by_side
from web.markdown import render_markdown
from web.note_forms import VersionForm
from web.pages import page
from web.session import team_page
from web.views.notes import base_context, confirm_page, note_details, refused, require_writer

FIELD_LABELS = {"type": "Type", "status": "Status", "tags": "Tags", "importance": "Importance"}


@team_page
@require_GET
def revision_list(request: HttpRequest, principal: Principal, slug: str, note_id: str) -> HttpResponse:
    details = note_details(principal, note_id, include_deleted=False)
    current = details["note"]
    if current["project"] != slug:
        return redirect("web:note-revisions", current["project"], current["id"])
    listing = store.list_note_revisions(principal, current["id"], limit=int(inputs.REVISIONS_LIMIT.maximum))
    context = {**base_context(slug, details, principal), "revisions": listing["revisions"]}
    return page(request, "web/note_revisions.html", context, principal=principal)


def _revision(principal: Principal, note_id: str, version: int) -> store.results.Revision | None:
    """A stored version, or None when it was pruned (or never existed)."""
    try:
        revision = store.get_note_revision(principal, note_id, version)["revision"]
    except NotFound:
        return None
    return revision


@team_page
@require_GET
def revision(
    request: HttpRequest, principal: Principal, slug: str, note_id: str, version: int
) -> HttpResponse:
    details = note_details(principal, note_id, include_deleted=False)
    current = details["note"]
    if current["project"] != slug:
        return redirect("web:note-revision", current["project"], current["id"], version)
    shown = _revision(principal, current["id"], version) if version >= 1 else None
    if shown is None:
        raise Http404("No such revision: it may have been pruned.")
    against = "current" if request.GET.get("against") == "current" else "previous"
    older: store.results.Revision | None = shown
    newer: store.results.Revision | None = shown
    if against == "current":
        newer = _revision(principal, current["id"], current["version"])
    else:
        older = _revision(principal, current["id"], version - 1) if version > 1 else None
    comparison = None
    if older is not None and newer is not None and older["version"] != newer["version"]:
        comparison = {
            "older": older,
            "newer": newer,
            "older_label": f"Version {older['version']}",
            "newer_label": f"Version {newer['version']}",
            "title_diff": side_by_side(older["title"], newer["title"]),
            "body_diff": side_by_side(older["body"], newer["body"]),
            "fields": field_changes(older, newer, FIELD_LABELS),
        }
    context = {
        **base_context(slug, details, principal),
        "revision": shown,
        "crumb": f"Version {shown['version']}",
        "body_html": render_markdown(shown["body"]),
        "against": against,
        "comparison": comparison,
    }
    return page(request, "web/note_revision.html", context, principal=principal)


@team_page
@require_http_methods(["GET", "POST"])
def revision_restore(
    request: HttpRequest, principal: Principal, slug: str, note_id: str, version: int
) -> HttpResponse:
    require_writer(principal)
    details = note_details(principal, note_id, include_deleted=False)
    current = details["note"]
    action: dict[str, Any] = {
        "heading": f"Restore version {version}?",
        "explanation": (
            f"Its title, text, type, tags and importance become version {current['version'] + 1}; "
            f"the current version {current['version']} stays in the history."
        ),
        "button": f"Restore version {version}",
        "danger": False,
        "url": reverse("web:note-revision-restore", args=[current["project"], current["id"], version]),
        "form": VersionForm(initial={"expected_version": current["version"]}),
    }
    if request.method == "GET":
        if _revision(principal, current["id"], version) is None or version == current["version"]:
            raise Http404("No such earlier revision.")
        return confirm_page(request, principal, slug, details, action)
    form = VersionForm(request.POST)
    if not form.is_valid():
        return confirm_page(request, principal, slug, details, {**action, "form": form, "status": 400})
    try:
        result = store.restore_note_revision(
            principal, current["id"], version, expected_version=form.cleaned_data["expected_version"]
        )
    except VersionConflict:
        messages.error(
            request,
            f"The note changed since you opened that page (it is now at version {current['version']}); "
            "nothing was restored. Compare again before restoring.",
        )
        return redirect("web:note-revision", current["project"], current["id"], version)
    except StoreError as error:
        refused(error)
        messages.error(request, error.message)
        return redirect("web:note-revisions", current["project"], current["id"])
    messages.success(request, f"Version {version} restored as version {result['note']['version']}.")
    return redirect("web:note", current["project"], current["id"])
