"""Look-ups by a caller-supplied key that answer not_found for anything outside the caller's scope.

The scope itself lives on the managers (`Project.objects.visible_to`, `Note.objects.visible_to`);
these helpers add the one error message each resource gives for "not yours" and "doesn't exist"."""

from __future__ import annotations

from typing import Any

from accounts.errors import InvalidArgument, NotFound
from accounts.principal import Principal
from memory import validation
from memory.models import Note, Project

MAX_ECHO = 60  # characters of a caller's value repeated in a not_found message


def echo(value: Any) -> str:
    """A caller's value as a message may repeat it: short, so a huge argument never comes back."""
    text = str(value)
    return repr(text if len(text) <= MAX_ECHO else text[:MAX_ECHO] + "…")


def project_for(principal: Principal, slug: Any) -> Project:
    """The caller's project with this slug; not_found for anything outside their scope."""
    if not isinstance(slug, str) or not slug.strip():
        raise InvalidArgument("`project` is required: pass a project slug (list the projects to see them).")
    project = Project.objects.visible_to(principal).filter(slug=slug.strip()).first()
    if project is None:
        raise NotFound(
            f"No project {echo(slug)} is visible to this credential. List the projects to see the slugs."
        )
    return project


def note_for(principal: Principal, note_id: Any, *, include_deleted: bool = False) -> Note:
    """A note visible to the caller; not_found for anything else (foreign, private, deleted)."""
    public_id = validation.note_id(note_id)
    notes = Note.objects.visible_to(principal)
    if not include_deleted:
        notes = notes.live()
    note = notes.select_related("project", "superseded_by").filter(public_id=public_id).first()
    if note is None:
        raise NotFound(f"No note {echo(public_id)} is visible to this credential. Find ids by searching.")
    return note
