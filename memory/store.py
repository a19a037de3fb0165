"""The store boundary: every read and write of projects and notes, for every entry point.

Each function takes the calling Principal first and is classified read or write in memory.registry.
Writes run scope check → plan check → screening → transaction → audit. Results are plain dicts in
the shapes of the tool contract, shared by MCP, REST and the web.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError
from django.db.models import Count, Q
from django.utils.text import slugify

from accounts.principal import Principal
from memory import audit, registry
from memory.errors import Forbidden, InvalidArgument
from memory.models import Project, Visibility
from memory.scoping import visible_projects

MAX_PROJECT_NAME = 120
MAX_SLUG = 60
MAX_PROJECT_TEXT = 20_000


def project_dict(project: Project, notes: int | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"slug": project.slug, "name": project.name, "summary": project.summary}
    if notes is not None:
        data["notes"] = notes
    return data


@registry.read
def list_projects(principal: Principal) -> dict[str, Any]:
    note_filter = Q(notes__deleted_at__isnull=True) & (
        Q(notes__visibility=Visibility.TEAM) | Q(notes__author_id=principal.user_id)
    )
    projects = visible_projects(principal).annotate(visible_notes=Count("notes", filter=note_filter))
    return {"projects": [project_dict(p, p.visible_notes) for p in projects.order_by("slug")]}


def _clean_text(value: str | None, field: str, limit: int) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InvalidArgument(f"`{field}` must be a string.")
    if len(value) > limit:
        raise InvalidArgument(f"`{field}` is {len(value)} characters; the limit is {limit}.")
    return value.strip()


def _clean_slug(raw: str | None, fallback_name: str) -> str:
    slug = slugify(raw if raw else fallback_name)[:MAX_SLUG].strip("-")
    if not slug:
        raise InvalidArgument("Could not derive a slug: pass `slug` with letters, digits or hyphens.")
    if raw and slug != raw:
        raise InvalidArgument(f"`slug` may hold lowercase letters, digits and hyphens only, e.g. {slug!r}.")
    return slug


@registry.write
def create_project(
    principal: Principal,
    name: str,
    slug: str | None = None,
    summary: str | None = None,
    agent_instructions: str | None = None,
) -> dict[str, Any]:
    if principal.project_id is not None:
        raise Forbidden("This key is scoped to one project and cannot create projects. Use a team-wide key.")
    clean_name = _clean_text(name, "name", MAX_PROJECT_NAME)
    if not clean_name:
        raise InvalidArgument("`name` is required, e.g. create_project(name='Payments API').")
    clean_slug = _clean_slug(slug, clean_name)
    if Project.objects.filter(team_id=principal.team_id, slug=clean_slug).exists():
        raise InvalidArgument(f"A project with slug {clean_slug!r} exists already: pass another `slug`.")
    try:
        project = Project.objects.create(
            team_id=principal.team_id,
            name=clean_name,
            slug=clean_slug,
            summary=_clean_text(summary, "summary", MAX_PROJECT_TEXT),
            agent_instructions=_clean_text(agent_instructions, "agent_instructions", MAX_PROJECT_TEXT),
        )
    except IntegrityError:
        raise InvalidArgument(
            f"A project with slug {clean_slug!r} exists already: pass another `slug`."
        ) from None
    audit.record(principal, "project.created", project_id=project.pk, object_id=project.slug)
    return {"project": project_dict(project, 0)}
