"""Helpers every store module shares: the caller's plan, note arguments as one Memory, shapes."""

from __future__ import annotations

from typing import Any

from accounts.principal import Principal
from billing.models import Plan
from memory import inputs, validation
from memory.models import Project
from memory.notes import lifecycle
from memory.notes import paths as code_paths
from memory.shapes import results


def team_plan(principal: Principal) -> Plan:
    return Plan.of_team(principal.team_id)


def max_revisions(principal: Principal) -> int:
    return int(team_plan(principal).max_revisions_per_note)


def project_dict(project: Project, notes: int | None = None) -> results.Project:
    data: results.Project = {"slug": project.slug, "name": project.name, "summary": project.summary}
    if notes is not None:
        data["notes"] = notes
    return data


def checked_version(value: Any) -> int | None:
    if value is None:
        return None
    return validation.declared_int(value, "expected_version", inputs.VERSION, default=1)


def memory_from_args(
    content: Any,
    *,
    type: Any,
    title: Any,
    tags: Any,
    importance: Any,
    visibility: Any,
    source: Any,
    supersedes: Any = None,
    force: Any = False,
    content_field: str = "content",
    paths: Any = None,
) -> lifecycle.Memory:
    clean_content = validation.body(content, content_field, required=True)
    return lifecycle.Memory(
        content=clean_content,
        title=validation.title(title) or validation.derive_title(clean_content),
        type=validation.note_type(type) if type is not None else inputs.DEFAULT_TYPE,
        tags=validation.tags(tags),
        importance=validation.importance(importance),
        visibility=validation.visibility(visibility) if visibility is not None else inputs.DEFAULT_VISIBILITY,
        source=validation.text(source, "source", limit=inputs.SOURCE.max_length),
        supersedes=validation.note_ids(
            supersedes, "supersedes", limit=inputs.SUPERSEDES.max_items, allow_empty=True
        ),
        force=validation.flag(force, "force"),
        paths=code_paths.note_patterns(paths),
    )
