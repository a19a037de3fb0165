"""The note page: the rendered note with its metadata, links and supersession chain; edit with
optimistic concurrency, delete and restore. Every read and write is a store call with the session
Principal, so scoping, screening, caps, revisions and audit are the tools' own."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from edge.errors import http_status, raise_for_access
from memory import store
from memory.store import (
    NotFound,
    Principal,
    StoreError,
    VersionConflict,
)
from web.diffs import side_by_side
from web.markdown import render_markdown
from web.note_forms import DeleteForm, NoteForm, add_store_error
from web.pages import page
from web.session import signed_in_user, team_page

RECENT_REVISIONS = 5


def project_path(slug: str) -> str:
    """The project page's path."""
    return reverse("web:project", args=[slug])


def note_details(
    principal: Principal, note_id: str, *, include_deleted: bool = True
) -> store.results_review.NoteDetails:
    """The note with its authorship and chain, or 404 for anything the caller cannot see."""
    try:
        return store.get_note_details(principal, note_id, include_deleted=include_deleted)
    except StoreError as error:  # a malformed id is as absent as a foreign one
        raise Http404(error.message) from None


def require_writer(principal: Principal) -> None:
    """Forms that write are not offered to viewers (the store refuses their writes as well)."""
    if not principal.can_write:
        raise PermissionDenied(principal.write_refusal().message)


def refused(error: StoreError) -> None:
    """Scope and permission refusals are pages of their own, not form errors."""
    raise_for_access(error)


def base_context(slug: str, details: Mapping[str, Any], principal: Principal) -> dict[str, Any]:
    note = details["note"]
    return {
        "slug": slug,
        "project_url": reverse("web:project", args=[note["project"]]),
        "note": note,
        "details": details,
        "can_write": principal.can_write,
    }


@team_page
@require_GET
def note(request: HttpRequest, principal: Principal, slug: str, note_id: str) -> HttpResponse:
    details = note_details(principal, note_id)
    current = details["note"]
    if current["project"] != slug:  # the project was renamed, or the link was typed by hand
        return redirect("web:note", current["project"], current["id"])
    deleted = "deleted_at" in current
    links: Mapping[str, Any] = {"outbound": [], "inbound": []}
    revisions: Mapping[str, Any] = {"revisions": []}
    if not deleted:
        links = store.list_note_links(principal, current["id"])
        revisions = store.list_note_revisions(principal, current["id"], limit=RECENT_REVISIONS)
    context = {
        **base_context(slug, details, principal),
        "deleted": deleted,
        "body_html": render_markdown(current["body"]),
        "links": links,
        "revisions": revisions["revisions"],
        "more_revisions": len(revisions["revisions"]) == RECENT_REVISIONS,
    }
    return page(request, "web/note.html", context, principal=principal)


def _edit_page(
    request: HttpRequest,
    principal: Principal,
    slug: str,
    details: Mapping[str, Any],
    form: NoteForm,
    *,
    conflict: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {**base_context(slug, details, principal), "form": form, "conflict": conflict}
    return page(request, "web/note_edit.html", context, principal=principal, status=status)


def _may_change_visibility(request: HttpRequest, details: Mapping[str, Any]) -> bool:
    user = signed_in_user(request)
    return user is not None and details["author"] == user.email


@team_page
@require_http_methods(["GET", "POST"])
def note_edit(request: HttpRequest, principal: Principal, slug: str, note_id: str) -> HttpResponse:
    require_writer(principal)
    details = note_details(principal, note_id)
    current = details["note"]
    if "deleted_at" in current:
        messages.error(request, "This note is deleted: restore it to edit it. Nothing was saved.")
        return redirect("web:note", current["project"], current["id"])
    visibility_editable = _may_change_visibility(request, details)
    if request.method == "GET":
        form = NoteForm(initial=NoteForm.initial_from(current), may_change_visibility=visibility_editable)
        return _edit_page(request, principal, slug, details, form)
    # The initial values stand in for a field the person may not change (visibility, for a non-author).
    form = NoteForm(
        request.POST, initial=NoteForm.initial_from(current), may_change_visibility=visibility_editable
    )
    if not form.is_valid():
        return _edit_page(request, principal, slug, details, form, status=400)
    changes = form.changes_from(current)
    expected = form.cleaned_data["expected_version"]
    if not changes and expected == current["version"]:
        messages.info(request, "Nothing changed.")
        return redirect("web:note", current["project"], current["id"])
    try:
        store.update_note(principal, current["id"], **changes, expected_version=expected)
    except VersionConflict:
        return _conflict(request, principal, slug, note_id, form)
    except NotFound:
        return _gone(request, principal, note_id)
    except StoreError as error:
        refused(error)
        add_store_error(form, error)
        return _edit_page(request, principal, slug, details, form, status=400)
    messages.success(request, "Note saved.")
    return redirect("web:note", current["project"], current["id"])


def _conflict(
    request: HttpRequest, principal: Principal, slug: str, note_id: str, stale: NoteForm
) -> HttpResponse:
    """Someone saved the note after this form was loaded: keep their version, show it and the
    difference to what this person wrote, and let them send their text again on the new version."""
    details = note_details(principal, note_id, include_deleted=False)
    newer = details["note"]
    data = request.POST.copy()
    data["expected_version"] = str(newer["version"])
    form = NoteForm(
        data,
        initial=NoteForm.initial_from(newer),
        may_change_visibility=_may_change_visibility(request, details),
    )
    form.is_valid()
    conflict = {
        "version": newer["version"],
        "label": f"Version {newer['version']} (saved)",
        "edited_by": details["last_edited_by"],
        "client": details["last_edited_client"],
        "body_html": render_markdown(newer["body"]),
        "title_changed": newer["title"] != stale.cleaned_data["title"],
        "body_diff": side_by_side(newer["body"], stale.cleaned_data["body"]),
    }
    return _edit_page(request, principal, slug, details, form, conflict=conflict, status=409)


def _gone(request: HttpRequest, principal: Principal, note_id: str) -> HttpResponse:
    """The note was deleted while the edit was being saved: say so on its page, not with a bare 404."""
    details = note_details(principal, note_id)
    messages.error(request, "This note is deleted: restore it to edit it. Nothing was saved.")
    return redirect("web:note", details["note"]["project"], details["note"]["id"])


def confirm_page(
    request: HttpRequest, principal: Principal, slug: str, details: Mapping[str, Any], action: dict[str, Any]
) -> HttpResponse:
    context = {**base_context(slug, details, principal), "action": action}
    return page(
        request, "web/note_confirm.html", context, principal=principal, status=action.get("status", 200)
    )


@team_page
@require_http_methods(["GET", "POST"])
def note_delete(request: HttpRequest, principal: Principal, slug: str, note_id: str) -> HttpResponse:
    require_writer(principal)
    details = note_details(principal, note_id, include_deleted=False)
    current = details["note"]
    action: dict[str, Any] = {
        "heading": "Delete this note?",
        "explanation": "Agents stop seeing it at once. A deleted note can be restored from its page.",
        "button": "Delete note",
        "danger": True,
        "url": reverse("web:note-delete", args=[current["project"], current["id"]]),
    }
    if request.method == "GET":
        action["form"] = DeleteForm(initial={"expected_version": current["version"]})
        return confirm_page(request, principal, slug, details, action)
    form = DeleteForm(request.POST)
    action["form"] = form
    if not form.is_valid():
        return confirm_page(request, principal, slug, details, {**action, "status": 400})
    try:
        store.delete_note(
            principal,
            current["id"],
            reason=form.cleaned_data["reason"] or None,
            expected_version=form.cleaned_data["expected_version"],
        )
    except VersionConflict:
        fresh = DeleteForm({"reason": form.cleaned_data["reason"], "expected_version": current["version"]})
        fresh.is_valid()
        fresh.add_error(
            None,
            f"The note changed since you opened this page (it is now at version {current['version']}): "
            "check it, then delete again if you still want to.",
        )
        return confirm_page(request, principal, slug, details, {**action, "form": fresh, "status": 409})
    except StoreError as error:
        refused(error)
        add_store_error(form, error)
        return confirm_page(request, principal, slug, details, {**action, "status": 400})
    messages.success(request, "Note deleted. You can restore it below.")
    return redirect("web:note", current["project"], current["id"])


@team_page
@require_http_methods(["GET", "POST"])
def note_restore(request: HttpRequest, principal: Principal, slug: str, note_id: str) -> HttpResponse:
    require_writer(principal)
    details = note_details(principal, note_id)
    current = details["note"]
    if "deleted_at" not in current:
        messages.info(request, "This note is not deleted.")
        return redirect("web:note", current["project"], current["id"])
    action: dict[str, Any] = {
        "heading": "Restore this note?",
        "explanation": "It comes back as it was when it was deleted, and agents see it again.",
        "button": "Restore note",
        "danger": False,
        "url": reverse("web:note-restore", args=[current["project"], current["id"]]),
    }
    return _confirmed(
        request,
        principal,
        slug,
        details,
        action,
        lambda: store.restore_note(principal, current["id"]),
        "Note restored.",
    )


@team_page
@require_http_methods(["GET", "POST"])
def note_still_true(request: HttpRequest, principal: Principal, slug: str, note_id: str) -> HttpResponse:
    """Answer a needs-review flag without editing: the code changed, and the note is still true."""
    require_writer(principal)
    details = note_details(principal, note_id, include_deleted=False)
    current = details["note"]
    if "needs_review" not in current:
        messages.info(request, "This note is not flagged for review.")
        return redirect("web:note", current["project"], current["id"])
    action: dict[str, Any] = {
        "heading": "Is this note still true?",
        "explanation": f"Its code changed in commit {current['needs_review']['commit']}. Confirming clears "
        "the flag; nothing else about the note changes. If it is no longer right, edit it instead.",
        "button": "Still true",
        "danger": False,
        "url": reverse("web:note-still-true", args=[current["project"], current["id"]]),
    }
    return _confirmed(
        request,
        principal,
        slug,
        details,
        action,
        lambda: store.confirm_note(principal, current["id"]),
        "Confirmed: the note is still true.",
    )


def _confirmed(
    request: HttpRequest,
    principal: Principal,
    slug: str,
    details: Mapping[str, Any],
    action: dict[str, Any],
    perform: Callable[[], object],
    done: str,
) -> HttpResponse:
    """A one-click action behind a confirm page: GET asks, POST performs it and returns to the note;
    a refusal shows the confirm page again with the store's message and status."""
    current = details["note"]
    if request.method == "GET":
        return confirm_page(request, principal, slug, details, action)
    try:
        perform()
    except StoreError as error:
        refused(error)
        return confirm_page(
            request,
            principal,
            slug,
            details,
            {**action, "error": error.message, "status": http_status(error)},
        )
    messages.success(request, done)
    return redirect("web:note", current["project"], current["id"])
