"""Export a project: JSON that re-imports losslessly, or readable Markdown, behind a signed download link.

The JSON document carries every note the caller can see, deleted ones too, with revisions and the links
between them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db.models import Prefetch
from django.utils import timezone

from accounts.errors import Forbidden, InvalidArgument, NotFound
from accounts.principal import Principal
from accounts.site import absolute_url
from memory import inputs, sealing
from memory.models import Note, NoteLink, NoteRevision, NoteType, Project
from memory.shapes import results_team

EXPORT_FORMAT = "knownbase-export"
EXPORT_VERSION = 1
EXPORT_FORMATS = inputs.EXPORT_FORMATS
EXPORT_URL_TTL = timedelta(minutes=10)
EXPORT_TOKEN_PURPOSE = "knownbase.export-download"  # noqa: S105 - a label, not a secret
_TOKEN_USE = "export-download"  # noqa: S105 - a label, not a secret
PROGRESS_BATCH = 500  # notes read per query when the caller follows the progress

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
# Fields a document may leave out (documents exported before they existed): name → value when absent.
OPTIONAL_NOTE_FIELDS: dict[str, object] = {"paths": []}
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
    if not Project.objects.visible_to(principal).filter(pk=project.pk).exists():
        raise NotFound(f"No project {project.slug!r} is visible to this credential.")


# ---------------------------------------------------------------------------------------------- export


def export_document(
    principal: Principal, project: Project, progress: Callable[[int, int], None] | None = None
) -> dict[str, Any]:
    """The complete, re-importable JSON document of what `principal` can see of `project`.

    With `progress`, the notes are read in batches and `progress(done, total)` is called after each."""
    _check_scope(principal, project)
    revisions = NoteRevision.objects.select_related("edited_by").order_by("version", "id")
    visible = (
        Note.objects.visible_to(principal)
        .filter(project=project)
        .select_related("author")
        .prefetch_related(Prefetch("revisions", queryset=revisions))
        .order_by("created_at", "id")
    )
    notes = list(visible) if progress is None else _in_batches(visible, progress)
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


def _in_batches(visible: Any, progress: Callable[[int, int], None]) -> list[Note]:
    # The order is fixed first; each batch is then one query (with its revisions) by primary key.
    pks = list(visible.values_list("pk", flat=True))
    progress(0, len(pks))
    notes: list[Note] = []
    for start in range(0, len(pks), PROGRESS_BATCH):
        batch = pks[start : start + PROGRESS_BATCH]
        found = {note.pk: note for note in visible.filter(pk__in=batch)}
        notes += [found[pk] for pk in batch if pk in found]  # a note deleted for good meanwhile is gone
        progress(start + len(batch), len(pks))
    return notes


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
        "paths": list(note.paths),
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


def export_counts(document: dict[str, Any]) -> results_team.Counts:
    notes = document.get("notes") or []
    return {
        "notes": len(notes),
        "revisions": sum(len(note.get("revisions") or []) for note in notes),
        "links": len(document.get("links") or []),
    }


def export_markdown(
    principal: Principal, project: Project, progress: Callable[[int, int], None] | None = None
) -> str:
    """A readable document: the project, then its live notes grouped by type."""
    return markdown_of(export_document(principal, project, progress))


def markdown_of(document: dict[str, Any]) -> str:
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
            if note.get("paths"):
                meta.append("code: " + ", ".join(f"`{glob}`" for glob in note["paths"]))
            meta.append(f"id: `{note['id']}`")
            if note["superseded_by"]:
                meta.append(f"superseded by `{note['superseded_by']}`")
            lines += [f"### {_one_line(note['title'])}", "", " · ".join(meta), ""]
            if note["body"].strip():
                lines += [note["body"].strip(), ""]
    return "\n".join(lines).rstrip() + "\n"


@dataclass(frozen=True)
class ExportFile:
    text: str
    content_type: str
    suffix: str  # after the project's slug in the file name


# Content type and file-name suffix of each format.
FILE_TYPES: dict[str, tuple[str, str]] = {
    "json": ("application/json", ".knownbase.json"),
    "markdown": ("text/markdown; charset=utf-8", ".md"),
}


def export_file(document: dict[str, Any], fmt: str) -> ExportFile:
    """The export as the file a download serves: indented JSON, or the Markdown rendering."""
    if fmt == "markdown":
        return ExportFile(markdown_of(document), *FILE_TYPES[fmt])
    return ExportFile(json.dumps(document, ensure_ascii=False, indent=2), *FILE_TYPES["json"])


def _one_line(text: str) -> str:
    return " ".join(text.split())


# ------------------------------------------------------------------------------------------ signed URLs


@dataclass(frozen=True)
class ExportGrant:
    """What a download link grants: one project's export in one format, to the credential that asked."""

    project: str  # the project's public id
    credential_id: str  # the asking Principal's credential_id: the link lives only as long as it does
    fmt: str
    job: str | None = None  # a finished export job's public id: the link serves the file it produced


def signed_export_url(
    principal: Principal, project: Project, fmt: str, job: str | None = None
) -> tuple[str, datetime]:
    """A download URL for this export, good for EXPORT_URL_TTL, and when it expires.

    The token is sealed (memory.sealing): nothing in it can be read or changed, and it is good for
    this download only. It names the credential that asked, checked again on every download. With
    `job` (a finished export job of the caller's), the link serves the file that job produced."""
    _check_scope(principal, project)
    if fmt not in EXPORT_FORMATS:
        raise InvalidArgument(f"`format` must be one of {', '.join(EXPORT_FORMATS)}, not {fmt!r}.")
    if not principal.credential_id:
        raise Forbidden("An export link is bound to the credential that asks for it; this caller has none.")
    payload = {"use": _TOKEN_USE, "p": project.public_id, "c": principal.credential_id, "f": fmt}
    if job is not None:
        payload["j"] = job
    token = sealing.seal(payload, EXPORT_TOKEN_PURPOSE)
    return absolute_url(f"/exports/{token}"), timezone.now() + EXPORT_URL_TTL


def read_export_token(token: str) -> ExportGrant:
    """The grant a download token carries; InvalidArgument when it is forged, altered or expired."""
    try:
        payload = sealing.unseal(token, EXPORT_TOKEN_PURPOSE, max_age=EXPORT_URL_TTL)
    except sealing.ExpiredToken:
        raise InvalidArgument("This export link has expired: ask for a new one.") from None
    except sealing.BadToken:
        raise InvalidArgument("This export link is not valid.") from None
    if not isinstance(payload, dict) or payload.get("use") != _TOKEN_USE:
        raise InvalidArgument("This export link is not valid.")
    project, credential_id, fmt, job = (payload.get(key) for key in ("p", "c", "f", "j"))
    if not (
        isinstance(project, str)
        and isinstance(credential_id, str)
        and credential_id
        and isinstance(fmt, str)
        and fmt in EXPORT_FORMATS
        and (job is None or isinstance(job, str))
    ):
        raise InvalidArgument("This export link is not valid.")
    return ExportGrant(project=project, credential_id=credential_id, fmt=fmt, job=job)
