"""The store boundary: every read and write of projects and notes, for every entry point.

Each function takes the calling Principal first and is classified read or write in memory.registry.
Writes run scope check → plan check → screening → transaction → audit. Results are plain dicts in
the shapes of the tool contract, shared by MCP, REST and the web.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError
from django.db.models import Count, F, Q
from django.utils import timezone
from django.utils.text import slugify

from accounts.models import Team, User
from accounts.principal import Principal
from billing import caps
from memory import (
    audit,
    context,
    feed,
    idempotency,
    ranking,
    registry,
    remembering,
    retrieval,
    screening,
    search,
    transfer,
    validation,
)
from memory.errors import Forbidden, InvalidArgument, NotFound
from memory.models import (
    AuditEvent,
    Note,
    NoteLink,
    NoteRevision,
    NoteStatus,
    NoteType,
    Project,
    ScreeningRule,
    Visibility,
)
from memory.notes import edit_note, inbound_link_counts, note_dict, rfc3339
from memory.scoping import project_for, visible_notes, visible_projects
from memory.screening import patterns as screening_patterns
from memory.screening import rules as screening_rules
from memory.tasks import schedule_embedding

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
    caps.require_project(_team(principal))
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


# ---------------------------------------------------------------------------------------------------
# Notes
# ---------------------------------------------------------------------------------------------------


def _team(principal: Principal) -> Team:
    return Team.objects.select_related("plan").get(pk=principal.team_id)


def _max_revisions(principal: Principal) -> int:
    return int(_team(principal).effective_plan.max_revisions_per_note)


def _note_for(principal: Principal, note_id: Any, *, include_deleted: bool = False) -> Note:
    """A note visible to the caller; not_found for anything else (foreign, private, deleted)."""
    public_id = validation.note_id(note_id)
    note = (
        visible_notes(principal, include_deleted=include_deleted)
        .select_related("project", "superseded_by")
        .filter(public_id=public_id)
        .first()
    )
    if note is None:
        raise NotFound(
            f"No note {public_id!r} is visible to this credential. Find ids with search_notes or get_context."
        )
    return note


def _memory(
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
) -> remembering.Memory:
    clean_content = validation.body(content, content_field, required=True)
    return remembering.Memory(
        content=clean_content,
        title=validation.title(title) or validation.derive_title(clean_content),
        type=validation.note_type(type) if type is not None else NoteType.NOTE,
        tags=validation.tags(tags),
        importance=validation.importance(importance),
        visibility=validation.visibility(visibility) if visibility is not None else Visibility.TEAM,
        source=validation.text(source, "source", limit=validation.MAX_SOURCE),
        supersedes=validation.note_ids(supersedes, "supersedes", limit=20, allow_empty=True),
        force=validation.flag(force, "force"),
    )


@registry.write
def remember(
    principal: Principal,
    project: str,
    content: str,
    type: str | None = None,
    title: str | None = None,
    tags: list[str] | None = None,
    importance: float | None = None,
    supersedes: list[str] | None = None,
    force: bool | None = None,
    idempotency_key: str | None = None,
    visibility: str | None = None,
    source: str | None = None,
) -> dict[str, Any]:
    target = project_for(principal, project)
    memory = _memory(
        content,
        type=type,
        title=title,
        tags=tags,
        importance=importance,
        visibility=visibility,
        source=source,
        supersedes=supersedes,
        force=force,
    )
    team = _team(principal)
    max_revisions = team.effective_plan.max_revisions_per_note
    use_semantic = team.effective_plan.semantic_search
    return idempotency.run_once(
        principal,
        "remember",
        idempotency_key,
        lambda: remembering.remember(
            principal, target, memory, max_revisions=max_revisions, use_semantic=use_semantic
        ),
    )


CHECKPOINT_ITEM_TYPES = {
    "decisions": NoteType.DECISION,
    "open_items": NoteType.TASK,
    "failed_approaches": NoteType.FAILED_APPROACH,
}
MAX_CHECKPOINT_ITEMS = 30


def _items(values: Any, field: str) -> list[str]:
    if values is None:
        return []
    if not isinstance(values, list):
        raise InvalidArgument(f"`{field}` must be a list of strings.")
    if len(values) > MAX_CHECKPOINT_ITEMS:
        raise InvalidArgument(f"`{field}` holds {len(values)} items; the limit is {MAX_CHECKPOINT_ITEMS}.")
    return [validation.text(v, f"{field}[]", limit=validation.MAX_BODY, required=True) for v in values]


def _handoff_body(summary: str, sections: dict[str, list[str]]) -> str:
    headings = {
        "decisions": "Decisions",
        "open_items": "Open items",
        "failed_approaches": "Failed approaches",
        "next_actions": "Next actions",
    }
    parts = [summary]
    for key, heading in headings.items():
        if sections[key]:
            parts.append(f"## {heading}\n" + "\n".join(f"- {item}" for item in sections[key]))
    return "\n\n".join(parts)


@registry.write
def checkpoint(
    principal: Principal,
    project: str,
    summary: str,
    decisions: list[str] | None = None,
    open_items: list[str] | None = None,
    failed_approaches: list[str] | None = None,
    next_actions: list[str] | None = None,
    idempotency_key: str | None = None,
) -> dict[str, Any]:
    target = project_for(principal, project)
    clean_summary = validation.body(summary, "summary", required=True)
    sections = {
        "decisions": _items(decisions, "decisions"),
        "open_items": _items(open_items, "open_items"),
        "failed_approaches": _items(failed_approaches, "failed_approaches"),
        "next_actions": _items(next_actions, "next_actions"),
    }
    handoff_body = _handoff_body(clean_summary, sections)
    validation.body(handoff_body, "summary")
    plan = _team(principal).effective_plan
    max_revisions, use_semantic = plan.max_revisions_per_note, plan.semantic_search

    def work() -> dict[str, Any]:
        handoff = remembering.create_note(
            principal,
            target,
            remembering.Memory(
                content=handoff_body,
                title="Handoff: " + validation.derive_title(clean_summary, 70),
                type=NoteType.HANDOFF,
                tags=["handoff"],
                importance=0.6,
                visibility=Visibility.TEAM,
                source=principal.client_name,
            ),
        )
        items = []
        for field, note_type in CHECKPOINT_ITEM_TYPES.items():
            for item in sections[field]:
                memory = _memory(
                    item,
                    type=note_type,
                    title=None,
                    tags=None,
                    importance=None,
                    visibility=None,
                    source=None,
                    content_field=f"{field}[]",
                )
                outcome = remembering.remember(
                    principal, target, memory, max_revisions=max_revisions, use_semantic=use_semantic
                )
                entry = {"kind": field, "status": outcome["status"], "id": outcome["note"]["id"]}
                if outcome["status"] == "conflict":
                    entry["message"] = outcome["message"]
                items.append(entry)
        return {"handoff": note_dict(handoff, body=False), "items": items}

    return idempotency.run_once(principal, "checkpoint", idempotency_key, work)


@registry.read
def get_notes(principal: Principal, ids: list[str], include_body: bool | None = True) -> dict[str, Any]:
    wanted = validation.note_ids(ids)
    with_body = True if include_body is None else validation.flag(include_body, "include_body")
    found = {
        note.public_id: note
        for note in visible_notes(principal)
        .filter(public_id__in=wanted)
        .select_related("project", "superseded_by")
        .prefetch_related("supersedes")
    }
    for note in found.values():
        note.supersedes_ids = [n.public_id for n in note.supersedes.all()]  # type: ignore[attr-defined]
    reinforce([n.pk for n in found.values()])
    return {
        "notes": [note_dict(found[i], body=with_body) for i in wanted if i in found],
        "missing": [i for i in wanted if i not in found],
    }


def reinforce(note_pks: list[int]) -> None:
    """Count a read of these notes (access reinforcement in ranking). Not a content change."""
    if note_pks:
        Note.objects.filter(pk__in=note_pks).update(
            access_count=F("access_count") + 1, last_accessed_at=timezone.now()
        )


@registry.write
def save_note(
    principal: Principal,
    id: str | None = None,
    project: str | None = None,
    title: str | None = None,
    body: str | None = None,
    type: str | None = None,
    status: str | None = None,
    tags: list[str] | None = None,
    importance: float | None = None,
    visibility: str | None = None,
    expected_version: int | None = None,
) -> dict[str, Any]:
    if (id is None) == (project is None):
        raise InvalidArgument(
            "Pass `project` (and title, body) to create a note, or `id` (and the fields to change) to update one."
        )
    if id is None:
        assert project is not None
        if expected_version is not None:
            raise InvalidArgument("`expected_version` applies to updates only: pass `id` with it.")
        target = project_for(principal, project)
        memory = _memory(
            body,
            type=type,
            title=validation.title(title, required=True),
            tags=tags,
            importance=importance,
            visibility=visibility,
            source=None,
            content_field="body",
        )
        note = remembering.create_note(
            principal, target, memory, status=validation.note_status(status) if status else NoteStatus.CURRENT
        )
        return {"note": note_dict(note)}

    note = _note_for(principal, id)
    changes: dict[str, Any] = {}
    if title is not None:
        changes["title"] = validation.title(title, required=True)
    if body is not None:
        changes["body"] = validation.body(body, required=True)
    if type is not None:
        changes["type"] = validation.note_type(type)
    if status is not None:
        changes["status"] = validation.note_status(status)
    if tags is not None:
        changes["tags"] = validation.tags(tags)
    if importance is not None:
        changes["importance"] = validation.importance(importance)
    if visibility is not None:
        changes["visibility"] = validation.visibility(visibility)
        if changes["visibility"] != note.visibility and note.author_id != principal.user_id:
            raise Forbidden("Only the note's author can change its visibility.")
    if not changes:
        raise InvalidArgument(
            "Nothing to change: pass at least one of title, body, type, status, tags, importance."
        )
    version = _expected_version(expected_version)
    updated = edit_note(
        note, principal, changes, expected_version=version, max_revisions=_max_revisions(principal)
    )
    audit.record(
        principal,
        "note.updated",
        project_id=note.project_id,
        object_id=note.public_id,
        fields=sorted(changes),
    )
    return {"note": note_dict(updated)}


def _expected_version(value: Any) -> int | None:
    if value is None:
        return None
    return validation.bounded_int(value, "expected_version", default=1, low=1, high=2**31 - 1)


@registry.write
def patch_note(
    principal: Principal,
    id: str,
    op: str,
    text: str,
    find: str | None = None,
    expected_version: int | None = None,
) -> dict[str, Any]:
    note = _note_for(principal, id)
    if op not in ("append", "prepend", "replace"):
        raise InvalidArgument("`op` must be one of: append, prepend, replace.")
    if not isinstance(text, str):
        raise InvalidArgument("`text` must be a string.")
    if op == "replace" and (not isinstance(find, str) or not find):
        raise InvalidArgument("`replace` needs `find`: the exact text to replace, copied from the note body.")
    if op != "replace" and find is not None:
        raise InvalidArgument("`find` applies to op='replace' only.")
    if op != "replace" and not text.strip():
        raise InvalidArgument("`text` must not be empty.")

    def patched(current: Note) -> dict[str, Any]:
        return {"body": validation.body(_patched_body(current, op, text, find), "text")}

    updated = edit_note(
        note,
        principal,
        patched,
        expected_version=_expected_version(expected_version),
        max_revisions=_max_revisions(principal),
    )
    audit.record(principal, "note.patched", project_id=note.project_id, object_id=note.public_id, op=op)
    return {"note": note_dict(updated)}


def _patched_body(note: Note, op: str, text: str, find: str | None) -> str:
    if op == "replace":
        assert find is not None
        occurrences = note.body.count(find)
        if occurrences == 0:
            raise InvalidArgument(
                f"`find` text does not occur in note {note.public_id}; nothing was changed. "
                "Copy it exactly from get_notes (include_body=true)."
            )
        if occurrences > 1:
            raise InvalidArgument(
                f"`find` text occurs {occurrences} times in note {note.public_id}; nothing was changed. "
                "Include more surrounding text so it matches exactly once."
            )
        return note.body.replace(find, text, 1)
    if not note.body.strip():
        return text.strip()
    if op == "append":
        return f"{note.body.rstrip()}\n\n{text.strip()}"
    return f"{text.strip()}\n\n{note.body.lstrip()}"


@registry.write
def delete_note(principal: Principal, id: str, reason: str | None = None) -> dict[str, Any]:
    note = _note_for(principal, id)
    clean_reason = validation.text(reason, "reason", limit=300)
    updated = edit_note(
        note,
        principal,
        {"deleted_at": timezone.now(), "delete_reason": clean_reason},
        max_revisions=_max_revisions(principal),
    )
    audit.record(principal, "note.deleted", project_id=note.project_id, object_id=note.public_id)
    return {"status": "deleted", "note": note_dict(updated, body=False)}


@registry.write
def restore_note(principal: Principal, id: str) -> dict[str, Any]:
    note = _note_for(principal, id, include_deleted=True)
    if note.deleted_at is None:
        raise InvalidArgument(f"Note {note.public_id} is not deleted.")
    caps.require_notes(_team(principal))
    updated = edit_note(
        note, principal, {"deleted_at": None, "delete_reason": ""}, max_revisions=_max_revisions(principal)
    )
    audit.record(principal, "note.restored", project_id=note.project_id, object_id=note.public_id)
    schedule_embedding([note.pk])
    return {"status": "restored", "note": note_dict(updated, body=False)}


def _user_emails(user_ids: set[int | None]) -> dict[int, str]:
    ids = {i for i in user_ids if i is not None}
    return dict(User.objects.filter(pk__in=ids).values_list("pk", "email")) if ids else {}


@registry.read
def list_note_revisions(
    principal: Principal, id: str, limit: int | None = None, include_body: bool | None = False
) -> dict[str, Any]:
    note = _note_for(principal, id)
    count = validation.bounded_int(limit, "limit", default=20, low=1, high=100)
    with_body = validation.flag(include_body, "include_body")
    revisions = list(note.revisions.order_by("-version")[:count])
    emails = _user_emails({r.edited_by_id for r in revisions})
    rows = []
    for revision in revisions:
        row: dict[str, Any] = {
            "version": revision.version,
            "title": revision.title,
            "body_chars": len(revision.body),
            "edited_by": emails.get(revision.edited_by_id) if revision.edited_by_id else None,
            "created_at": rfc3339(revision.created_at),
        }
        if with_body:
            row["body"] = revision.body
        rows.append(row)
    return {"id": note.public_id, "current_version": note.version, "revisions": rows}


@registry.read
def get_note_revision(principal: Principal, id: str, version: int) -> dict[str, Any]:
    note = _note_for(principal, id)
    wanted = validation.bounded_int(version, "version", default=1, low=1, high=2**31 - 1)
    if wanted == note.version:
        source: Note | NoteRevision = note
        editor = note.last_edited_by_id or note.author_id
        created = note.updated_at
    else:
        revision = note.revisions.filter(version=wanted).first()
        if revision is None:
            raise NotFound(
                f"Note {note.public_id} has no stored revision {wanted} (current version {note.version}; "
                "older revisions may have been pruned). Call list_note_revisions to see what is kept."
            )
        source, editor, created = revision, revision.edited_by_id, revision.created_at
    return {
        "revision": {
            "id": note.public_id,
            "version": wanted,
            "current": wanted == note.version,
            "type": source.type,
            "status": source.status,
            "title": source.title,
            "body": source.body,
            "tags": list(source.tags),
            "importance": source.importance,
            "edited_by": _user_emails({editor}).get(editor) if editor else None,
            "created_at": rfc3339(created),
        }
    }


@registry.write
def relate_notes(
    principal: Principal, from_id: str, to_id: str, kind: str, remove: bool | None = False
) -> dict[str, Any]:
    source = _note_for(principal, from_id)
    target = _note_for(principal, to_id)
    clean_kind = validation.link_kind(kind)
    if source.pk == target.pk:
        raise InvalidArgument("A note cannot be related to itself: pass two different ids.")
    link = {"from_id": source.public_id, "to_id": target.public_id, "kind": clean_kind}
    existing = NoteLink.objects.filter(from_note=source, to_note=target, kind=clean_kind)
    if validation.flag(remove, "remove"):
        removed = existing.delete()[0] > 0
        if removed:
            audit.record(principal, "link.removed", project_id=source.project_id, object_id=source.public_id)
        return {"status": "removed" if removed else "absent", "link": link}
    if existing.exists():
        return {"status": "exists", "link": link}
    NoteLink.objects.create(
        from_note=source, to_note=target, kind=clean_kind, created_by_id=principal.user_id
    )
    audit.record(
        principal, "link.created", project_id=source.project_id, object_id=source.public_id, kind=clean_kind
    )
    return {"status": "created", "link": link}


@registry.write
def rename_project(
    principal: Principal, project: str, name: str | None = None, slug: str | None = None
) -> dict[str, Any]:
    target = project_for(principal, project)
    if name is None and slug is None:
        raise InvalidArgument("Pass `name`, `slug` or both.")
    if name is not None:
        target.name = _clean_text(name, "name", MAX_PROJECT_NAME) or target.name
        if not name.strip():
            raise InvalidArgument("`name` must not be empty.")
    if slug is not None:
        new_slug = _clean_slug(slug, target.name)
        if new_slug != target.slug and Project.objects.filter(team_id=target.team_id, slug=new_slug).exists():
            raise InvalidArgument(f"A project with slug {new_slug!r} exists already: pass another `slug`.")
        target.slug = new_slug
    target.updated_at = timezone.now()
    target.save(update_fields=["name", "slug", "updated_at"])
    audit.record(principal, "project.renamed", project_id=target.pk, object_id=target.slug)
    return {"project": project_dict(target)}


@registry.write
def rename_tag(principal: Principal, project: str, old: str, new: str) -> dict[str, Any]:
    target = project_for(principal, project)
    old_tag = validation.tag_name(old, "old")
    new_tag = validation.tag_name(new, "new")
    if old_tag == new_tag:
        raise InvalidArgument("`old` and `new` are the same tag.")
    max_revisions = _max_revisions(principal)
    notes = list(visible_notes(principal).filter(project=target, tags__contains=[old_tag]))

    def renamed(current: Note) -> dict[str, Any]:
        merged = [new_tag if tag == old_tag else tag for tag in current.tags]
        return {"tags": list(dict.fromkeys(merged))}

    for note in notes:
        edit_note(note, principal, renamed, max_revisions=max_revisions)
    audit.record(principal, "tag.renamed", project_id=target.pk, object_id=new_tag, notes=len(notes))
    return {"project": target.slug, "old": old_tag, "new": new_tag, "notes_updated": len(notes)}


@registry.read
def get_usage(principal: Principal) -> dict[str, Any]:
    team = _team(principal)
    plan = team.effective_plan
    return {
        "plan": {"code": plan.code, "name": plan.name},
        "caps": plan.caps(),
        "usage": {
            "projects": team.projects_used(),
            "notes": team.notes_used(),
            "members": team.members_used(),
            "api_keys": team.api_keys_used(),
        },
        "upgrade_url": caps.upgrade_url(),
    }


@registry.read
def search_notes(
    principal: Principal,
    query: str,
    project: str | None = None,
    semantic: bool | None = False,
    types: list[str] | None = None,
    statuses: list[str] | None = None,
    tags: list[str] | None = None,
    limit: int | None = None,
    include_body: bool | None = False,
) -> dict[str, Any]:
    text = validation.text(query, "query", limit=validation.MAX_QUERY, required=True)
    count = validation.bounded_int(limit, "limit", default=10, low=1, high=50)
    with_body = validation.flag(include_body, "include_body")
    wants_semantic = validation.flag(semantic, "semantic")
    notes = visible_notes(principal).select_related("project")
    if project is not None:
        notes = notes.filter(project=project_for(principal, project))
    type_filter = validation.choice_list(types, "types", NoteType.values)
    status_filter = validation.choice_list(statuses, "statuses", NoteStatus.values)
    if type_filter:
        notes = notes.filter(type__in=type_filter)
    if status_filter:
        notes = notes.filter(status__in=status_filter)
    if tags is not None:
        notes = notes.filter(tags__contains=validation.tags(tags))
    use_semantic = wants_semantic and _team(principal).effective_plan.semantic_search
    hits, mode = retrieval.retrieve(notes, text, count * 3, use_semantic=use_semantic)
    now = timezone.now()
    inbound = inbound_link_counts([hit.note.pk for hit in hits])
    scored = sorted(
        (
            (
                ranking.score(
                    ranking.note_signals(hit.note, hit.relevance, inbound.get(hit.note.pk, 0)), now
                ),
                hit.note,
            )
            for hit in hits
        ),
        key=lambda pair: pair[0],
        reverse=True,
    )[:count]
    results = []
    for score, note in scored:
        row: dict[str, Any] = {
            "id": note.public_id,
            "project": note.project.slug,
            "title": note.title,
            "type": note.type,
            "status": note.status,
            "snippet": search.snippet(note.body, text),
            "body_chars": len(note.body),
            "score": score,
            "updated_at": rfc3339(note.updated_at),
        }
        if with_body:
            row["body"] = note.body
        results.append(row)
    return {"results": results, "search_mode": mode}


@registry.read
def get_context(
    principal: Principal,
    project: str,
    query: str | None = None,
    detail: str | None = None,
    max_tokens: int | None = None,
    types: list[str] | None = None,
) -> dict[str, Any]:
    target = project_for(principal, project)
    detail_name = detail or "balanced"
    if detail_name not in context.DETAIL_LEVELS:
        raise InvalidArgument(f"`detail` must be one of: {', '.join(context.DETAIL_LEVELS)}.")
    explicit = (
        None
        if max_tokens is None
        else validation.bounded_int(
            max_tokens, "max_tokens", default=0, low=context.MIN_BUDGET, high=context.MAX_BUDGET
        )
    )
    plan = _team(principal).effective_plan
    plan_default = plan.default_context_budget
    budget = context.resolve_budget(explicit, target, context.DETAIL_LEVELS[detail_name], plan_default)
    response, returned = context.build_context(
        principal,
        target,
        query=validation.text(query, "query", limit=validation.MAX_QUERY),
        detail_name=detail_name,
        budget=budget,
        types=validation.choice_list(types, "types", NoteType.values),
        use_semantic=plan.semantic_search,
    )
    reinforce(returned)
    return response


@registry.read
def get_changes_since(
    principal: Principal,
    project: str,
    since: str | None = None,
    cursor: str | None = None,
    types: list[str] | None = None,
    statuses: list[str] | None = None,
    limit: int | None = None,
    max_tokens: int | None = None,
) -> dict[str, Any]:
    target = project_for(principal, project)
    return feed.changes_since(
        principal,
        target,
        since=since,
        cursor=cursor,
        types=types,
        statuses=statuses,
        limit=50 if limit is None else limit,
        max_tokens=max_tokens,
    )


EXPORT_FORMATS = ("json", "markdown")


@registry.read
def export_project(principal: Principal, project: str, format: str | None = "json") -> dict[str, Any]:
    target = project_for(principal, project)
    fmt = format or "json"
    if fmt not in EXPORT_FORMATS:
        raise InvalidArgument("`format` must be json or markdown.")
    counts = transfer.export_counts(transfer.export_document(principal, target))
    url, expires_at = transfer.signed_export_url(principal, target, fmt)
    audit.record(
        principal, "project.export_requested", project_id=target.pk, object_id=target.slug, format=fmt
    )
    return {
        "project": target.slug,
        "format": fmt,
        "counts": counts,
        "url": url,
        "expires_at": rfc3339(expires_at),
    }


@registry.write
def import_project(
    principal: Principal, document: Any, slug: str | None = None, name: str | None = None
) -> dict[str, Any]:
    return transfer.import_document(principal, document, slug=slug, name=name)


# ---------------------------------------------------------------------------------------------------
# Team administration: screening rules and the audit log (owners and admins)
# ---------------------------------------------------------------------------------------------------

MANAGE_MESSAGE = "Only team owners and admins can do this."
MAX_RULE_VALUE = 500


def _require_manager(principal: Principal) -> None:
    if not principal.can_manage or principal.project_id is not None:
        raise Forbidden(MANAGE_MESSAGE + " Use an owner's or admin's team-wide read-write credential.")


def _rule_dict(rule: ScreeningRule) -> dict[str, Any]:
    # Allow-listed values are shown only as a masked hint: the list is for the gate, not for reading back.
    shown = (
        rule.value
        if rule.kind == ScreeningRule.Kind.PATTERN
        else f"{rule.value[:4]}…({len(rule.value)} chars)"
    )
    return {
        "id": rule.pk,
        "kind": rule.kind,
        "name": rule.name,
        "value": shown,
        "created_at": rfc3339(rule.created_at),
    }


@registry.write(unscreened=("value",))
def add_screening_rule(principal: Principal, kind: str, name: str, value: str) -> dict[str, Any]:
    """A team pattern (a regular expression refused on every write) or an exact value to allow."""
    _require_manager(principal)
    if kind not in ScreeningRule.Kind.values:
        raise InvalidArgument("`kind` must be pattern or allow.")
    clean_name = validation.text(name, "name", limit=60, required=True)
    if not isinstance(value, str) or not value or len(value) > MAX_RULE_VALUE:
        raise InvalidArgument(f"`value` must be a non-empty string of at most {MAX_RULE_VALUE} characters.")
    if kind == ScreeningRule.Kind.PATTERN:
        # Only allow-list values skip the gate (they are known-safe by definition); a pattern is
        # screened like any other text, so a literal secret cannot be stored as a "pattern".
        screening.enforce(principal, "add_screening_rule", {"value": value})
        screening_rules.check_pattern(value)
    rule, created = ScreeningRule.objects.get_or_create(
        team_id=principal.team_id,
        kind=kind,
        value=value,
        defaults={"name": clean_name, "created_by_id": principal.user_id},
    )
    if created:
        audit.record(principal, "screening.rule_added", object_id=str(rule.pk), kind=kind, name=clean_name)
    return {"rule": _rule_dict(rule), "status": "created" if created else "exists"}


@registry.write
def delete_screening_rule(principal: Principal, rule_id: int) -> dict[str, Any]:
    _require_manager(principal)
    rule = (
        ScreeningRule.objects.filter(team_id=principal.team_id, pk=rule_id).first()
        if isinstance(rule_id, int)
        else None
    )
    if rule is None:
        raise NotFound(f"No screening rule {rule_id!r} in this team.")
    rule.delete()
    audit.record(principal, "screening.rule_deleted", object_id=str(rule_id), kind=rule.kind, name=rule.name)
    return {"status": "deleted", "id": rule_id}


@registry.read
def list_screening_rules(principal: Principal) -> dict[str, Any]:
    _require_manager(principal)
    rules = ScreeningRule.objects.filter(team_id=principal.team_id).order_by("kind", "name")
    return {"rules": [_rule_dict(rule) for rule in rules], "families": list(screening_patterns.FAMILY_NAMES)}


@registry.read
def list_audit_events(
    principal: Principal, limit: int | None = None, before_id: int | None = None, action: str | None = None
) -> dict[str, Any]:
    """The team's audit log, newest first (owners and admins)."""
    _require_manager(principal)
    count = validation.bounded_int(limit, "limit", default=50, low=1, high=500)
    events = AuditEvent.objects.filter(team_id=principal.team_id).select_related("actor", "project")
    if before_id is not None:
        events = events.filter(
            pk__lt=validation.bounded_int(before_id, "before_id", default=0, low=1, high=2**62)
        )
    if action:
        events = events.filter(action=validation.text(action, "action", limit=60))
    rows = list(events.order_by("-pk")[:count])
    return {
        "events": [
            {
                "id": event.pk,
                "action": event.action,
                "actor": event.actor.email if event.actor else None,
                "client": event.client,
                "project": event.project.slug if event.project else None,
                "object_id": event.object_id,
                "detail": event.detail,
                "created_at": rfc3339(event.created_at),
            }
            for event in rows
        ],
        "next_before_id": rows[-1].pk if len(rows) == count else None,
    }
