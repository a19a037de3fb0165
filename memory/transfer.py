"""Export a project (JSON that re-imports losslessly, or readable Markdown) and import it as a new project.

The JSON document carries every note the caller can see, deleted ones too, with revisions and the links
between them. Import validates the whole document before writing anything, then writes it in bulk under
one transaction, with new public ids and supersession and links remapped to them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, NoReturn, TypeVar

from django.conf import settings
from django.core import signing
from django.db import IntegrityError, models, transaction
from django.db.models import Prefetch
from django.utils import timezone

from accounts.models import Membership, Team
from accounts.principal import Principal
from billing.caps import require_notes, require_project
from memory import audit
from memory.errors import READ_ONLY_MESSAGE, Forbidden, InvalidArgument, NotFound
from memory.ids import new_note_id
from memory.models import LinkKind, Note, NoteLink, NoteRevision, NoteStatus, NoteType, Project, Visibility
from memory.notes import content_hash
from memory.scoping import visible_notes
from memory.tasks import schedule_embedding

EXPORT_FORMAT = "knownbase-export"
EXPORT_VERSION = 1
EXPORT_FORMATS = ("json", "markdown")
EXPORT_URL_TTL = timedelta(minutes=10)
_SIGNING_SALT = "knownbase.export.v1"

# Column limits, checked up front so a bad document is an invalid_argument and never a database error.
MAX_SLUG = 60
MAX_PROJECT_NAME = 120
MAX_PROJECT_TEXT = 20_000
MAX_TITLE = 300
MAX_TAG = 64
MAX_SOURCE = 100
MAX_DELETE_REASON = 300
MAX_OLD_ID = 64
MAX_EMAIL = 254
MAX_INT = 2**31 - 1  # PositiveIntegerField
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_BATCH = 1000

TYPE_HEADINGS: dict[str, str] = {
    NoteType.DECISION: "Decisions",
    NoteType.CONSTRAINT: "Constraints",
    NoteType.ARCHITECTURE: "Architecture",
    NoteType.FACT: "Facts",
    NoteType.INCIDENT: "Incidents",
    NoteType.FAILED_APPROACH: "Failed approaches",
    NoteType.PROCEDURE: "Procedures",
    NoteType.STATUS: "Status",
    NoteType.TASK: "Tasks",
    NoteType.HANDOFF: "Handoffs",
    NoteType.PREFERENCE: "Preferences",
    NoteType.REFERENCE: "References",
    NoteType.NOTE: "Notes",
}

PROJECT_FIELDS = ("slug", "name", "summary", "agent_instructions", "default_context_budget")
NOTE_FIELDS = (
    "id",
    "type",
    "status",
    "title",
    "body",
    "tags",
    "importance",
    "visibility",
    "source",
    "version",
    "author",
    "created_at",
    "updated_at",
    "deleted_at",
    "delete_reason",
    "access_count",
    "last_accessed_at",
    "superseded_by",
    "revisions",
)
REVISION_FIELDS = (
    "version",
    "type",
    "status",
    "title",
    "body",
    "tags",
    "importance",
    "edited_by",
    "client",
    "created_at",
)
LINK_FIELDS = ("from", "to", "kind", "created_at")
DOCUMENT_FIELDS = ("format", "version", "exported_at", "project", "notes", "links")


def _time(value: datetime | None) -> str | None:
    """RFC 3339 in UTC, always with microseconds, so a time read back is exactly the time stored."""
    if value is None:
        return None
    return value.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _check_scope(principal: Principal, project: Project) -> None:
    if project.team_id != principal.team_id or (
        principal.project_id is not None and project.pk != principal.project_id
    ):
        raise NotFound(f"No project {project.slug!r} is visible to this credential.")


# ---------------------------------------------------------------------------------------------- export


def export_document(principal: Principal, project: Project) -> dict[str, Any]:
    """The complete, re-importable JSON document of what `principal` can see of `project`."""
    _check_scope(principal, project)
    revisions = NoteRevision.objects.select_related("edited_by").order_by("version", "id")
    notes = list(
        visible_notes(principal, include_deleted=True)
        .filter(project=project)
        .select_related("author")
        .prefetch_related(Prefetch("revisions", queryset=revisions))
        .order_by("created_at", "id")
    )
    public_ids = {note.pk: note.public_id for note in notes}
    links = (
        NoteLink.objects.filter(from_note_id__in=list(public_ids), to_note_id__in=list(public_ids))
        .only("from_note_id", "to_note_id", "kind", "created_at")
        .order_by("created_at", "id")
    )
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": _time(timezone.now()),
        "project": {
            "slug": project.slug,
            "name": project.name,
            "summary": project.summary,
            "agent_instructions": project.agent_instructions,
            "default_context_budget": project.default_context_budget,
        },
        "notes": [_note_export(note, public_ids) for note in notes],
        "links": [
            {
                "from": public_ids[link.from_note_id],
                "to": public_ids[link.to_note_id],
                "kind": link.kind,
                "created_at": _time(link.created_at),
            }
            for link in links
        ],
    }


def _note_export(note: Note, public_ids: dict[int, str]) -> dict[str, Any]:
    # A successor the caller cannot see (another user's private note) is left out, so the document
    # never points at a note it does not hold.
    superseded_by = public_ids.get(note.superseded_by_id) if note.superseded_by_id is not None else None
    return {
        "id": note.public_id,
        "type": note.type,
        "status": note.status,
        "title": note.title,
        "body": note.body,
        "tags": list(note.tags),
        "importance": note.importance,
        "visibility": note.visibility,
        "source": note.source,
        "version": note.version,
        "author": note.author.email if note.author else None,
        "created_at": _time(note.created_at),
        "updated_at": _time(note.updated_at),
        "deleted_at": _time(note.deleted_at),
        "delete_reason": note.delete_reason,
        "access_count": note.access_count,
        "last_accessed_at": _time(note.last_accessed_at),
        "superseded_by": superseded_by,
        "revisions": [
            {
                "version": revision.version,
                "type": revision.type,
                "status": revision.status,
                "title": revision.title,
                "body": revision.body,
                "tags": list(revision.tags),
                "importance": revision.importance,
                "edited_by": revision.edited_by.email if revision.edited_by else None,
                "client": revision.client,
                "created_at": _time(revision.created_at),
            }
            for revision in note.revisions.all()
        ],
    }


def export_counts(document: dict[str, Any]) -> dict[str, int]:
    notes = document.get("notes") or []
    return {
        "notes": len(notes),
        "revisions": sum(len(note.get("revisions") or []) for note in notes),
        "links": len(document.get("links") or []),
    }


def export_markdown(principal: Principal, project: Project) -> str:
    """A readable document: the project, then its live notes grouped by type."""
    document = export_document(principal, project)
    info = document["project"]
    lines = [f"# {_one_line(info['name'])}", ""]
    if info["summary"]:
        lines += [info["summary"].strip(), ""]
    if info["agent_instructions"]:
        lines += ["## Agent instructions", "", info["agent_instructions"].strip(), ""]
    live = [note for note in document["notes"] if note["deleted_at"] is None]
    lines += [f"_Exported {document['exported_at']}: {len(live)} notes._", ""]
    for note_type in NoteType.values:
        group = [note for note in live if note["type"] == note_type]
        if not group:
            continue
        lines += [f"## {TYPE_HEADINGS.get(note_type, note_type)}", ""]
        for note in group:
            meta = [f"status: {note['status']}"]
            if note["tags"]:
                meta.append("tags: " + ", ".join(note["tags"]))
            meta.append(f"id: `{note['id']}`")
            if note["superseded_by"]:
                meta.append(f"superseded by `{note['superseded_by']}`")
            lines += [f"### {_one_line(note['title'])}", "", " · ".join(meta), ""]
            if note["body"].strip():
                lines += [note["body"].strip(), ""]
    return "\n".join(lines).rstrip() + "\n"


def _one_line(text: str) -> str:
    return " ".join(text.split())


# ------------------------------------------------------------------------------------------ signed URLs


@dataclass(frozen=True)
class ExportGrant:
    team_id: int
    project_id: int
    user_id: int
    fmt: str


def _signer() -> signing.TimestampSigner:
    return signing.TimestampSigner(salt=_SIGNING_SALT)


def signed_export_url(principal: Principal, project: Project, fmt: str) -> tuple[str, datetime]:
    """A download URL for this export, good for EXPORT_URL_TTL, and when it expires."""
    _check_scope(principal, project)
    if fmt not in EXPORT_FORMATS:
        raise InvalidArgument(f"`format` must be one of {', '.join(EXPORT_FORMATS)}, not {fmt!r}.")
    payload = {"t": principal.team_id, "p": project.pk, "u": principal.user_id, "f": fmt}
    token = _signer().sign_object(payload)
    return f"{settings.SITE_URL}/exports/{token}", timezone.now() + EXPORT_URL_TTL


def read_export_token(token: str) -> ExportGrant:
    """The grant a download token carries; InvalidArgument when it is forged, altered or expired."""
    try:
        payload = _signer().unsign_object(token, max_age=EXPORT_URL_TTL)
    except signing.SignatureExpired:
        raise InvalidArgument("This export link has expired: ask for a new one.") from None
    except (signing.BadSignature, ValueError):
        raise InvalidArgument("This export link is not valid.") from None
    if not isinstance(payload, dict):
        raise InvalidArgument("This export link is not valid.")
    team_id, project_id, user_id, fmt = (payload.get(key) for key in ("t", "p", "u", "f"))
    if not (
        type(team_id) is int
        and type(project_id) is int
        and type(user_id) is int
        and isinstance(fmt, str)
        and fmt in EXPORT_FORMATS
    ):
        raise InvalidArgument("This export link is not valid.")
    return ExportGrant(team_id=team_id, project_id=project_id, user_id=user_id, fmt=fmt)


# ---------------------------------------------------------------------------------------------- import


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


def _int(value: Any, path: str, minimum: int = 0) -> int:
    if type(value) is not int or not minimum <= value <= MAX_INT:
        _fail(path, f"must be an integer from {minimum} to {MAX_INT}")
    return value


def _importance(value: Any, path: str) -> float:
    if type(value) not in (int, float) or not math.isfinite(value) or not 0 <= value <= 1:
        _fail(path, "must be a number from 0 to 1")
    return float(value)


def _choice(value: Any, path: str, choices: type[models.TextChoices]) -> str:
    if value not in choices.values:
        _fail(path, f"must be one of {', '.join(choices.values)}")
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
    return parsed.astimezone(UTC)


def _optional_datetime(value: Any, path: str) -> datetime | None:
    return None if value is None else _datetime(value, path)


def _tags(value: Any, path: str) -> list[str]:
    return [_text(tag, f"{path}[{i}]", MAX_TAG, required=True) for i, tag in enumerate(_list(value, path))]


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
        version=_int(data["version"], f"{path}.version", minimum=1),
        type=_choice(data["type"], f"{path}.type", NoteType),
        status=_choice(data["status"], f"{path}.status", NoteStatus),
        title=_text(data["title"], f"{path}.title", MAX_TITLE, required=True),
        body=_text(data["body"], f"{path}.body"),
        tags=_tags(data["tags"], f"{path}.tags"),
        importance=_importance(data["importance"], f"{path}.importance"),
        edited_by=_optional_text(data["edited_by"], f"{path}.edited_by", MAX_EMAIL),
        client=_text(data["client"], f"{path}.client", MAX_SOURCE),
        created_at=_datetime(data["created_at"], f"{path}.created_at"),
    )


def _parse_note(value: Any, path: str) -> _NoteIn:
    data = _object(value, path, NOTE_FIELDS)
    note = _NoteIn(
        id=_text(data["id"], f"{path}.id", MAX_OLD_ID, required=True),
        type=_choice(data["type"], f"{path}.type", NoteType),
        status=_choice(data["status"], f"{path}.status", NoteStatus),
        title=_text(data["title"], f"{path}.title", MAX_TITLE, required=True),
        body=_text(data["body"], f"{path}.body"),
        tags=_tags(data["tags"], f"{path}.tags"),
        importance=_importance(data["importance"], f"{path}.importance"),
        visibility=_choice(data["visibility"], f"{path}.visibility", Visibility),
        source=_text(data["source"], f"{path}.source", MAX_SOURCE),
        version=_int(data["version"], f"{path}.version", minimum=1),
        author=_optional_text(data["author"], f"{path}.author", MAX_EMAIL),
        created_at=_datetime(data["created_at"], f"{path}.created_at"),
        updated_at=_datetime(data["updated_at"], f"{path}.updated_at"),
        deleted_at=_optional_datetime(data["deleted_at"], f"{path}.deleted_at"),
        delete_reason=_text(data["delete_reason"], f"{path}.delete_reason", MAX_DELETE_REASON),
        access_count=_int(data["access_count"], f"{path}.access_count"),
        last_accessed_at=_optional_datetime(data["last_accessed_at"], f"{path}.last_accessed_at"),
        superseded_by=_optional_text(data["superseded_by"], f"{path}.superseded_by", MAX_OLD_ID),
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
        from_id=_text(data["from"], f"{path}.from", MAX_OLD_ID, required=True),
        to_id=_text(data["to"], f"{path}.to", MAX_OLD_ID, required=True),
        kind=_choice(data["kind"], f"{path}.kind", LinkKind),
        created_at=_datetime(data["created_at"], f"{path}.created_at"),
    )


def _slug(value: Any, path: str) -> str:
    slug = _text(value, path, MAX_SLUG, required=True)
    if not _SLUG.match(slug):
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
    _text(project["slug"], "project.slug", MAX_SLUG, required=True)
    parsed = _DocumentIn(
        slug=_slug(slug, "slug") if slug is not None else _slug(project["slug"], "project.slug"),
        name=_text(name, "name", MAX_PROJECT_NAME, required=True).strip()
        if name is not None
        else _text(project["name"], "project.name", MAX_PROJECT_NAME, required=True),
        summary=_text(project["summary"], "project.summary", MAX_PROJECT_TEXT),
        agent_instructions=_text(
            project["agent_instructions"], "project.agent_instructions", MAX_PROJECT_TEXT
        ),
        default_context_budget=None if budget is None else _int(budget, "project.default_context_budget"),
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


def import_document(
    principal: Principal, document: Any, *, slug: str | None = None, name: str | None = None
) -> dict[str, Any]:
    """Create a new project in the caller's team from an export document, keeping every note's state."""
    if principal.project_id is not None:
        raise Forbidden("This key is scoped to one project and cannot create projects. Use a team-wide key.")
    if not principal.can_write:
        raise Forbidden(READ_ONLY_MESSAGE)
    parsed = _parse_document(document, slug, name)
    live = sum(1 for note in parsed.notes if note.deleted_at is None)
    taken = InvalidArgument(
        f"A project with slug {parsed.slug!r} exists already: pass another `slug`.", path="slug"
    )
    with transaction.atomic():
        # Locking the team serialises imports and creates against the plan caps.
        team = Team.objects.select_for_update(of=("self",)).select_related("plan").get(pk=principal.team_id)
        if Project.objects.filter(team=team, slug=parsed.slug).exists():
            raise taken
        require_project(team)
        require_notes(team, live)
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
        counts, id_map = _write_notes(principal, team, project, parsed)
        audit.record(principal, "project.imported", project_id=project.pk, object_id=project.slug, **counts)
    return {
        "project": {"slug": project.slug, "name": project.name, "summary": project.summary, "notes": live},
        "imported": counts,
        "id_map": id_map,
    }


def _write_notes(
    principal: Principal, team: Team, project: Project, parsed: _DocumentIn
) -> tuple[dict[str, int], dict[str, str]]:
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
    schedule_embedding(note.pk for note in notes if note.deleted_at is None)
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
        for rev in item.revisions
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
    counts = {"notes": len(notes), "revisions": len(revisions), "links": len(links)}
    return counts, {old: note.public_id for old, note in by_old.items()}
