"""Projects: list, create, rename, and tag renames across a project's notes."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.text import slugify

from accounts import audit
from accounts.errors import Forbidden, InvalidArgument
from accounts.principal import Principal
from memory import (
    idempotency,
    inputs,
    registry,
    usage,
    validation,
)
from memory.models import (
    Note,
    Project,
    Visibility,
)
from memory.notes.lifecycle import edit_note, rfc3339
from memory.notes.scoping import project_for
from memory.screening import guard
from memory.shapes import results
from memory.store.common import max_revisions, project_dict


@registry.read
def list_projects(principal: Principal) -> results.ProjectList:
    note_filter = Q(notes__deleted_at__isnull=True) & (
        Q(notes__visibility=Visibility.TEAM) | Q(notes__author_id=principal.user_id)
    )
    projects = Project.objects.visible_to(principal).annotate(
        visible_notes=Count("notes", filter=note_filter)
    )
    # The stubs cannot see annotations through a custom QuerySet's manager.
    return {"projects": [project_dict(p, p.visible_notes) for p in projects.order_by("slug")]}  # type: ignore[attr-defined]


def _clean_text(value: str | None, field: str, limit: int) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InvalidArgument(f"`{field}` must be a string.")
    if len(value) > limit:
        raise InvalidArgument(f"`{field}` is {len(value)} characters; the limit is {limit}.")
    return value.strip()


def _clean_slug(raw: str | None, fallback_name: str) -> str:
    slug = slugify(raw if raw else fallback_name)[: inputs.PROJECT_SLUG.max_length].strip("-")
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
    idempotency_key: str | None = None,
) -> results.ProjectResult:
    if principal.project_id is not None:
        raise Forbidden("This key is scoped to one project and cannot create projects. Use a team-wide key.")
    clean_name = _clean_text(name, "name", inputs.PROJECT_NAME.max_length)
    if not clean_name:
        raise InvalidArgument("`name` is required, e.g. 'Payments API'.")
    clean_slug = _clean_slug(slug, clean_name)
    clean_summary = _clean_text(summary, "summary", inputs.PROJECT_TEXT.max_length)
    clean_instructions = _clean_text(agent_instructions, "agent_instructions", inputs.PROJECT_TEXT.max_length)
    fields = {
        "name": clean_name,
        "slug": clean_slug,
        "summary": clean_summary,
        "agent_instructions": clean_instructions,
    }
    # A derived slug can be a secret its name was not: "123 - 45 - 6789" becomes 123-45-6789.
    guard.stored(principal, fields)

    def work() -> results.ProjectResult:
        # The cap and the slug are checked inside the work: a retry finds the project it created.
        usage.require_project(principal.team_id)
        if Project.objects.filter(team_id=principal.team_id, slug=clean_slug).exists():  # unique per team
            raise InvalidArgument(f"A project with slug {clean_slug!r} exists already: pass another `slug`.")
        try:
            project = Project.objects.create(team_id=principal.team_id, **fields)
        except IntegrityError:
            raise InvalidArgument(
                f"A project with slug {clean_slug!r} exists already: pass another `slug`."
            ) from None
        # The public id, not the slug: slugs change, and one of up to 60 characters overflows object_id.
        audit.record(
            principal,
            "project.created",
            project_id=project.pk,
            project_slug=project.slug,
            object_id=project.public_id,
        )
        return {"project": project_dict(project, 0)}

    # No project exists yet: the key belongs to the team.
    return idempotency.run_once(
        principal, "create_project", idempotency_key, work, project=None, request=fields
    )


@registry.write
def rename_project(
    principal: Principal, project: str, name: str | None = None, slug: str | None = None
) -> results.ProjectResult:
    target = project_for(principal, project)
    if name is None and slug is None:
        raise InvalidArgument("Pass `name`, `slug` or both.")
    if name is not None:
        target.name = _clean_text(name, "name", inputs.PROJECT_NAME.max_length) or target.name
        if not name.strip():
            raise InvalidArgument("`name` must not be empty.")
    if slug is not None:
        new_slug = _clean_slug(slug, target.name)
        if new_slug != target.slug and Project.objects.filter(team_id=target.team_id, slug=new_slug).exists():
            raise InvalidArgument(f"A project with slug {new_slug!r} exists already: pass another `slug`.")
        target.slug = new_slug
    guard.stored(principal, {"name": target.name, "slug": target.slug})
    target.updated_at = timezone.now()
    target.save(update_fields=["name", "slug", "updated_at"])
    audit.record(
        principal,
        "project.renamed",
        project_id=target.pk,
        project_slug=target.slug,
        object_id=target.public_id,
    )
    return {"project": project_dict(target)}


@registry.write
def rename_tag(
    principal: Principal, project: str, old: str, new: str, idempotency_key: str | None = None
) -> results.TagRenamed:
    target = project_for(principal, project)
    old_tag = validation.tag_name(old, "old")
    new_tag = validation.tag_name(new, "new")
    if old_tag == new_tag:
        raise InvalidArgument("`old` and `new` are the same tag.")
    # The normalised tag is written to notes and the audit log, and "RK_TEST_…" becomes rk_test_….
    guard.stored(principal, {"new": new_tag})
    revision_cap = max_revisions(principal)

    def renamed(current: Note) -> dict[str, Any]:
        merged = [new_tag if tag == old_tag else tag for tag in current.tags]
        return {"tags": list(dict.fromkeys(merged))}

    def work() -> results.TagRenamed:
        notes = list(
            Note.objects.visible_to(principal).live().filter(project=target, tags__contains=[old_tag])
        )
        for note in notes:
            # One audit row for the whole rename, below.
            edit_note(note, principal, renamed, max_revisions=revision_cap, audit_as=None)
        audit.record(
            principal,
            "tag.renamed",
            project_id=target.pk,
            project_slug=target.slug,
            # A tag may have 64 characters, more than object_id holds: it goes in the detail.
            object_id=target.public_id,
            tag=new_tag,
            notes=len(notes),
        )
        return {"project": target.slug, "old": old_tag, "new": new_tag, "notes_updated": len(notes)}

    return idempotency.run_once(
        principal,
        "rename_tag",
        idempotency_key,
        work,
        project=target,
        request={"old": old_tag, "new": new_tag},
    )


def _project_detail(project: Project, notes: int) -> results.ProjectDetail:
    return {
        **project_dict(project, notes),
        "agent_instructions": project.agent_instructions,
        "default_context_budget": project.default_context_budget,
        "created_at": rfc3339(project.created_at),
        "updated_at": rfc3339(project.updated_at),
    }


def _clean_budget(value: Any) -> int | None:
    """A default context budget, or None for 0 (the detail level's budget applies again)."""
    budget = validation.declared_int(value, "default_context_budget", inputs.PROJECT_CONTEXT_BUDGET)
    if budget and budget < inputs.CONTEXT_MAX_TOKENS.minimum:
        raise InvalidArgument(
            f"`default_context_budget` must be 0 (none) or from {int(inputs.CONTEXT_MAX_TOKENS.minimum)} "
            f"to {int(inputs.PROJECT_CONTEXT_BUDGET.maximum)}; got {budget}."
        )
    return budget or None


def _visible_note_count(principal: Principal, project: Project) -> int:
    return int(Note.objects.visible_to(principal).live().filter(project=project).count())


@registry.read
def get_project(
    principal: Principal, project: str, count_notes: bool | None = True
) -> results.ProjectDetailResult:
    """One project with its texts and the number of its notes the caller can see (`notes`; left out
    with count_notes=False, which spares counting a large project)."""
    target = project_for(principal, project)
    if not validation.flag(True if count_notes is None else count_notes, "count_notes"):
        detail = _project_detail(target, 0)
        del detail["notes"]
        return {"project": detail}
    return {"project": _project_detail(target, _visible_note_count(principal, target))}


@registry.write
def update_project(
    principal: Principal,
    project: str,
    name: str | None = None,
    slug: str | None = None,
    summary: str | None = None,
    agent_instructions: str | None = None,
    default_context_budget: int | None = None,
) -> results.ProjectDetailResult:
    """Change any of a project's name, slug, summary, agent instructions and default context budget
    (0 clears it) in one write."""
    target = project_for(principal, project)
    if (
        name is None
        and slug is None
        and summary is None
        and agent_instructions is None
        and default_context_budget is None
    ):
        raise InvalidArgument(
            "Pass at least one of `name`, `slug`, `summary`, `agent_instructions`, `default_context_budget`."
        )
    changed: list[str] = []
    if name is not None:
        clean_name = _clean_text(name, "name", inputs.PROJECT_NAME.max_length)
        if not clean_name:
            raise InvalidArgument("`name` must not be empty.")
        target.name = clean_name
        changed.append("name")
    if slug is not None:
        new_slug = _clean_slug(slug, target.name)
        if new_slug != target.slug and Project.objects.filter(team_id=target.team_id, slug=new_slug).exists():
            raise InvalidArgument(f"A project with slug {new_slug!r} exists already: pass another `slug`.")
        target.slug = new_slug
        changed.append("slug")
    if summary is not None:
        target.summary = _clean_text(summary, "summary", inputs.PROJECT_TEXT.max_length)
        changed.append("summary")
    if agent_instructions is not None:
        target.agent_instructions = _clean_text(
            agent_instructions, "agent_instructions", inputs.PROJECT_TEXT.max_length
        )
        changed.append("agent_instructions")
    if default_context_budget is not None:
        target.default_context_budget = _clean_budget(default_context_budget)
        changed.append("default_context_budget")
    target.updated_at = timezone.now()
    target.save(update_fields=[*changed, "updated_at"])
    audit.record(
        principal,
        "project.updated",
        project_id=target.pk,
        project_slug=target.slug,
        object_id=target.slug,
        fields=changed,
    )
    return {"project": _project_detail(target, _visible_note_count(principal, target))}
