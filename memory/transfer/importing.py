"""Import an export document as a new project.

The whole document is validated against the same input declarations as every other write
(memory.inputs) before anything is written, then written in bulk under one transaction, with new
public ids and supersession and links remapped to them. Revisions beyond the team plan's cap are
pruned oldest first, as an edit would prune them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, NoReturn, TypeVar, overload

from django.db import IntegrityError, transaction

from accounts import audit
from accounts.errors import Forbidden, InvalidArgument
from accounts.models import Membership, Team
from accounts.principal import Principal
from billing.models import Plan
from memory import inputs, usage
from memory.embeddings.scheduling import schedule_bulk_embedding
from memory.ids import new_note_id
from memory.models import Note, NoteLink, NoteRevision, Project
from memory.notes import paths as code_paths
from memory.notes.lifecycle import content_hash
from memory.shapes import results_team
from memory.transfer.exporting import (
    DOCUMENT_FIELDS,
    EXPORT_FORMAT,
    EXPORT_VERSION,
    LINK_FIELDS,
    NOTE_FIELDS,
    OPTIONAL_NOTE_FIELDS,
    PROJECT_FIELDS,
    REVISION_FIELDS,
)

_BATCH = 1000


def _fail(path: str, message: str) -> NoReturn:
    raise InvalidArgument(f"{path} {message}", path=path)


def _object(value: Any, path: str, fields: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        _fail(path, "must be an object")
    for field in fields:
        if field not in value:
            _fail(f"{path}.{field}" if path else field, "is required")
    unknown = sorted(str(key) for key in value if key not in fields)
    if unknown:
        _fail(path or "document", f"has unknown field {unknown[0]!r}")
    return value


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        _fail(path, "must be a list")
    return value


def _text(value: Any, path: str, limit: int | None = None, *, required: bool = False) -> str:
    if not isinstance(value, str):
        _fail(path, "must be a string")
    if "\x00" in value:
        _fail(path, "must not contain NUL characters")
    if limit is not None and len(value) > limit:
        _fail(path, f"is {len(value)} characters; the limit is {limit}")
    if required and not value.strip():
        _fail(path, "must not be empty")
    return value


def _optional_text(value: Any, path: str, limit: int) -> str | None:
    return None if value is None else _text(value, path, limit, required=True)


def _int(value: Any, path: str, spec: inputs.NumberInput) -> int:
    low, high = int(spec.minimum), int(spec.maximum)
    if type(value) is not int or not low <= value <= high:
        _fail(path, f"must be an integer from {low} to {high}")
    return value


def _importance(value: Any, path: str) -> float:
    low, high = inputs.IMPORTANCE.minimum, inputs.IMPORTANCE.maximum
    if type(value) not in (int, float) or not math.isfinite(value) or not low <= value <= high:
        _fail(path, f"must be a number from {low} to {high}")
    return float(value)


def _choice(value: Any, path: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        _fail(path, f"must be one of {', '.join(choices)}")
    return str(value)


def _datetime(value: Any, path: str) -> datetime:
    if not isinstance(value, str):
        _fail(path, "must be an RFC 3339 time string")
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        _fail(path, "must be an RFC 3339 time string")
    if parsed.tzinfo is None:
        _fail(path, "must carry a time zone (e.g. a trailing Z)")
    try:
        return parsed.astimezone(UTC)
    except OverflowError:  # 0001-01-01T00:00:00+14:00 is before year 1 in UTC
        _fail(path, "is outside the years 1 to 9999 in UTC")


def _optional_datetime(value: Any, path: str) -> datetime | None:
    return None if value is None else _datetime(value, path)


def _tags(value: Any, path: str) -> list[str]:
    """Tags as the store keeps them: already normalised, unique, and no more than a note may hold."""
    tags = _list(value, path)
    if len(tags) > inputs.TAGS.max_items:
        _fail(path, f"holds {len(tags)} tags; the limit is {inputs.TAGS.max_items}")
    for i, tag in enumerate(tags):
        _text(tag, f"{path}[{i}]", inputs.TAG.max_length, required=True)
        if not inputs.TAG_PATTERN.match(tag):
            _fail(f"{path}[{i}]", "must be lowercase letters, digits and - _ . : / + # (no spaces)")
    if len(set(tags)) != len(tags):
        _fail(path, "repeats a tag")
    return list(tags)


T = TypeVar("T")


def _each(value: Any, path: str, parse: Callable[[Any, str], T]) -> list[T]:
    return [parse(item, f"{path}[{i}]") for i, item in enumerate(_list(value, path))]


@dataclass
class _RevisionIn:
    version: int
    type: str
    status: str
    title: str
    body: str
    tags: list[str]
    importance: float
    edited_by: str | None
    client: str
    created_at: datetime


@dataclass
class _NoteIn:
    id: str
    type: str
    status: str
    title: str
    body: str
    tags: list[str]
    importance: float
    visibility: str
    source: str
    version: int
    author: str | None
    created_at: datetime
    updated_at: datetime
    deleted_at: datetime | None
    delete_reason: str
    access_count: int
    last_accessed_at: datetime | None
    superseded_by: str | None
    revisions: list[_RevisionIn]
    paths: list[str]


@dataclass
class _LinkIn:
    from_id: str
    to_id: str
    kind: str
    created_at: datetime


@dataclass
class _DocumentIn:
    slug: str
    name: str
    summary: str
    agent_instructions: str
    default_context_budget: int | None
    notes: list[_NoteIn]
    links: list[_LinkIn]


def _parse_revision(value: Any, path: str) -> _RevisionIn:
    data = _object(value, path, REVISION_FIELDS)
    return _RevisionIn(
        version=_int(data["version"], f"{path}.version", inputs.VERSION),
        type=_choice(data["type"], f"{path}.type", inputs.NOTE_TYPES),
        status=_choice(data["status"], f"{path}.status", inputs.NOTE_STATUSES),
        title=_text(data["title"], f"{path}.title", inputs.TITLE.max_length, required=True),
        body=_text(data["body"], f"{path}.body", inputs.BODY.max_length),
        tags=_tags(data["tags"], f"{path}.tags"),
        importance=_importance(data["importance"], f"{path}.importance"),
        edited_by=_optional_text(data["edited_by"], f"{path}.edited_by", inputs.EMAIL.max_length),
        client=_text(data["client"], f"{path}.client", inputs.SOURCE.max_length),
        created_at=_datetime(data["created_at"], f"{path}.created_at"),
    )


def _paths(value: Any, path: str) -> list[str]:
    """A note's globs as the store keeps them: normalised, unique, within the per-note cap."""
    try:
        return code_paths.note_patterns(value, path)
    except InvalidArgument as error:
        _fail(path, error.message)


def _parse_note(value: Any, path: str) -> _NoteIn:
    if isinstance(value, dict):
        value = {**OPTIONAL_NOTE_FIELDS, **value}
    data = _object(value, path, (*NOTE_FIELDS, *OPTIONAL_NOTE_FIELDS))
    note = _NoteIn(
        id=_text(data["id"], f"{path}.id", inputs.EXPORTED_ID.max_length, required=True),
        type=_choice(data["type"], f"{path}.type", inputs.NOTE_TYPES),
        status=_choice(data["status"], f"{path}.status", inputs.NOTE_STATUSES),
        title=_text(data["title"], f"{path}.title", inputs.TITLE.max_length, required=True),
        body=_text(data["body"], f"{path}.body", inputs.BODY.max_length),
        tags=_tags(data["tags"], f"{path}.tags"),
        paths=_paths(data["paths"], f"{path}.paths"),
        importance=_importance(data["importance"], f"{path}.importance"),
        visibility=_choice(data["visibility"], f"{path}.visibility", inputs.VISIBILITIES),
        source=_text(data["source"], f"{path}.source", inputs.SOURCE.max_length),
        version=_int(data["version"], f"{path}.version", inputs.VERSION),
        author=_optional_text(data["author"], f"{path}.author", inputs.EMAIL.max_length),
        created_at=_datetime(data["created_at"], f"{path}.created_at"),
        updated_at=_datetime(data["updated_at"], f"{path}.updated_at"),
        deleted_at=_optional_datetime(data["deleted_at"], f"{path}.deleted_at"),
        delete_reason=_text(data["delete_reason"], f"{path}.delete_reason", inputs.DELETE_REASON.max_length),
        access_count=_int(data["access_count"], f"{path}.access_count", inputs.COUNT),
        last_accessed_at=_optional_datetime(data["last_accessed_at"], f"{path}.last_accessed_at"),
        superseded_by=_optional_text(
            data["superseded_by"], f"{path}.superseded_by", inputs.EXPORTED_ID.max_length
        ),
        revisions=_each(data["revisions"], f"{path}.revisions", _parse_revision),
    )
    seen: set[int] = set()
    for i, revision in enumerate(note.revisions):
        if revision.version in seen:
            _fail(f"{path}.revisions[{i}].version", f"repeats version {revision.version}")
        seen.add(revision.version)
    return note


def _parse_link(value: Any, path: str) -> _LinkIn:
    data = _object(value, path, LINK_FIELDS)
    return _LinkIn(
        from_id=_text(data["from"], f"{path}.from", inputs.EXPORTED_ID.max_length, required=True),
        to_id=_text(data["to"], f"{path}.to", inputs.EXPORTED_ID.max_length, required=True),
        kind=_choice(data["kind"], f"{path}.kind", inputs.LINK_KINDS),
        created_at=_datetime(data["created_at"], f"{path}.created_at"),
    )


def _slug(value: Any, path: str) -> str:
    slug = _text(value, path, inputs.PROJECT_SLUG.max_length, required=True)
    if not inputs.SLUG_PATTERN.match(slug):
        _fail(path, "may hold lowercase letters, digits and single hyphens only, e.g. 'payments-api'")
    return slug


def _parse_document(document: Any, slug: str | None, name: str | None) -> _DocumentIn:
    if not isinstance(document, dict):
        raise InvalidArgument("The import must be a JSON object, as written by export_project.", path="")
    if document.get("format") != EXPORT_FORMAT:
        _fail("format", f"must be {EXPORT_FORMAT!r}")
    if type(document.get("version")) is not int or document.get("version") != EXPORT_VERSION:
        _fail("version", f"must be {EXPORT_VERSION}")
    data = _object(document, "", DOCUMENT_FIELDS)
    _datetime(data["exported_at"], "exported_at")
    project = _object(data["project"], "project", PROJECT_FIELDS)
    budget = project["default_context_budget"]
    _text(project["slug"], "project.slug", inputs.PROJECT_SLUG.max_length, required=True)
    parsed = _DocumentIn(
        slug=_slug(slug, "slug") if slug is not None else _slug(project["slug"], "project.slug"),
        name=_text(name, "name", inputs.PROJECT_NAME.max_length, required=True).strip()
        if name is not None
        else _text(project["name"], "project.name", inputs.PROJECT_NAME.max_length, required=True),
        summary=_text(project["summary"], "project.summary", inputs.PROJECT_TEXT.max_length),
        agent_instructions=_text(
            project["agent_instructions"], "project.agent_instructions", inputs.PROJECT_TEXT.max_length
        ),
        default_context_budget=None
        if budget is None
        else _int(budget, "project.default_context_budget", inputs.PROJECT_CONTEXT_BUDGET),
        notes=_each(data["notes"], "notes", _parse_note),
        links=_each(data["links"], "links", _parse_link),
    )
    known: dict[str, int] = {}
    for i, note in enumerate(parsed.notes):
        if note.id in known:
            _fail(f"notes[{i}].id", f"repeats id {note.id!r} of notes[{known[note.id]}]")
        known[note.id] = i
    for i, note in enumerate(parsed.notes):
        if note.superseded_by is not None:
            if note.superseded_by not in known:
                _fail(f"notes[{i}].superseded_by", f"refers to unknown note id {note.superseded_by!r}")
            if note.superseded_by == note.id:
                _fail(f"notes[{i}].superseded_by", "must not be the note itself")
    seen_links: set[tuple[str, str, str]] = set()
    for i, link in enumerate(parsed.links):
        for field, ref in (("from", link.from_id), ("to", link.to_id)):
            if ref not in known:
                _fail(f"links[{i}].{field}", f"refers to unknown note id {ref!r}")
        if link.from_id == link.to_id:
            _fail(f"links[{i}]", "links a note to itself")
        key = (link.from_id, link.to_id, link.kind)
        if key in seen_links:
            _fail(f"links[{i}]", "repeats an earlier link")
        seen_links.add(key)
    return parsed


@overload
def import_document(
    principal: Principal,
    document: Any,
    *,
    slug: str | None = None,
    name: str | None = None,
    dry_run: Literal[False] = False,
) -> results_team.Imported: ...


@overload
def import_document(
    principal: Principal,
    document: Any,
    *,
    slug: str | None = None,
    name: str | None = None,
    dry_run: Literal[True],
) -> results_team.ImportDryRun: ...


@overload
def import_document(
    principal: Principal,
    document: Any,
    *,
    slug: str | None = None,
    name: str | None = None,
    dry_run: bool = False,
) -> results_team.Imported | results_team.ImportDryRun: ...


def import_document(
    principal: Principal,
    document: Any,
    *,
    slug: str | None = None,
    name: str | None = None,
    dry_run: bool = False,
) -> results_team.Imported | results_team.ImportDryRun:
    """Create a new project in the caller's team from an export document, keeping every note's state.

    A dry run makes every check the import makes (the document, the slug, the plan caps) and reports
    the counts it would write, writing nothing."""
    if principal.project_id is not None:
        raise Forbidden("This key is scoped to one project and cannot create projects. Use a team-wide key.")
    if not principal.can_write:
        raise principal.write_refusal()
    parsed = _parse_document(document, slug, name)
    live = sum(1 for note in parsed.notes if note.deleted_at is None)
    taken = InvalidArgument(
        f"A project with slug {parsed.slug!r} exists already: pass another `slug`.", path="slug"
    )
    with transaction.atomic():
        # Locking the team serialises imports and creates against the plan caps.
        team = Team.objects.select_for_update().get(pk=principal.team_id)
        if Project.objects.filter(team=team, slug=parsed.slug).exists():
            raise taken
        usage.require_project(team.pk)
        usage.require_notes(team.pk, live)
        if dry_run:
            return _dry_run_report(parsed, live, Plan.of_team(team.pk).max_revisions_per_note)
        try:
            with transaction.atomic():
                project = Project.objects.create(
                    team=team,
                    slug=parsed.slug,
                    name=parsed.name,
                    summary=parsed.summary,
                    agent_instructions=parsed.agent_instructions,
                    default_context_budget=parsed.default_context_budget,
                )
        except IntegrityError:
            raise taken from None
        max_revisions = Plan.of_team(team.pk).max_revisions_per_note
        counts, id_map = _write_notes(principal, team, project, parsed, max_revisions)
        audit.record(
            principal,
            "project.imported",
            project_id=project.pk,
            project_slug=project.slug,
            object_id=project.slug,
            **counts,
        )
    return {
        "project": {"slug": project.slug, "name": project.name, "summary": project.summary, "notes": live},
        "imported": counts,
        "id_map": id_map,
    }


def _dry_run_report(parsed: _DocumentIn, live: int, max_revisions: int) -> results_team.ImportDryRun:
    counts: results_team.Counts = {
        "notes": len(parsed.notes),
        "revisions": sum(len(_newest(note.revisions, max_revisions)) for note in parsed.notes),
        "links": len(parsed.links),
    }
    # By status, so a preview says "9 current, 2 superseded" rather than counting every live note current.
    by_status: dict[str, int] = {}
    for note in parsed.notes:
        status = "deleted" if note.deleted_at is not None else note.status
        by_status[status] = by_status.get(status, 0) + 1
    return {
        "dry_run": True,
        "project": {"slug": parsed.slug, "name": parsed.name, "summary": parsed.summary, "notes": live},
        "would_import": counts,
        "by_status": dict(sorted(by_status.items(), key=lambda item: (item[0] != "current", item[0]))),
    }


def _write_notes(
    principal: Principal, team: Team, project: Project, parsed: _DocumentIn, max_revisions: int
) -> tuple[results_team.Counts, dict[str, str]]:
    """Write the parsed notes, revisions and links in bulk; return the counts and the old → new id map."""
    members = {
        email.lower(): user_id
        for email, user_id in Membership.objects.filter(team=team).values_list("user__email", "user_id")
    }

    def user_for(email: str | None) -> int | None:
        # Someone who is not in this team gets no authorship here: the importer takes it. No one
        # (a user since deleted) stays no one, so a round trip keeps it.
        if email is None:
            return None
        return members.get(email.lower(), principal.user_id)

    notes = [
        Note(
            public_id=new_note_id(),
            team=team,
            project=project,
            author_id=user_for(item.author),
            type=item.type,
            status=item.status,
            title=item.title,
            body=item.body,
            importance=item.importance,
            tags=item.tags,
            paths=item.paths,
            source=item.source,
            visibility=item.visibility,
            version=item.version,
            content_hash=content_hash(item.body),
            access_count=item.access_count,
            last_accessed_at=item.last_accessed_at,
            created_at=item.created_at,
            updated_at=item.updated_at,
            deleted_at=item.deleted_at,
            delete_reason=item.delete_reason,
        )
        for item in parsed.notes
    ]
    Note.objects.bulk_create(notes, batch_size=_BATCH)
    schedule_bulk_embedding(note.pk for note in notes if note.deleted_at is None)
    by_old = {item.id: note for item, note in zip(parsed.notes, notes, strict=True)}

    superseded = []
    for item, note in zip(parsed.notes, notes, strict=True):
        if item.superseded_by is not None:
            note.superseded_by = by_old[item.superseded_by]
            superseded.append(note)
    Note.objects.bulk_update(superseded, ["superseded_by"], batch_size=_BATCH)

    revisions = [
        NoteRevision(
            note=note,
            version=rev.version,
            type=rev.type,
            status=rev.status,
            title=rev.title,
            body=rev.body,
            tags=rev.tags,
            importance=rev.importance,
            edited_by_id=user_for(rev.edited_by),
            client=rev.client,
            created_at=rev.created_at,
        )
        for item, note in zip(parsed.notes, notes, strict=True)
        for rev in _newest(item.revisions, max_revisions)
    ]
    NoteRevision.objects.bulk_create(revisions, batch_size=_BATCH)

    links = [
        NoteLink(
            from_note=by_old[link.from_id],
            to_note=by_old[link.to_id],
            kind=link.kind,
            created_by_id=principal.user_id,
            created_at=link.created_at,
        )
        for link in parsed.links
    ]
    NoteLink.objects.bulk_create(links, batch_size=_BATCH)
    counts: results_team.Counts = {"notes": len(notes), "revisions": len(revisions), "links": len(links)}
    return counts, {old: note.public_id for old, note in by_old.items()}


def _newest(revisions: list[_RevisionIn], keep: int) -> list[_RevisionIn]:
    """The plan keeps `keep` revisions a note; older ones are pruned, as an edit prunes them."""
    return sorted(revisions, key=lambda rev: rev.version)[-keep:] if keep > 0 else []
