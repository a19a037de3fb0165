"""Shaping notes for responses, and the one edit path that keeps versions and revisions right."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, overload

from django.db import connection
from django.db.models import Count, F
from django.utils import timezone

from accounts import audit
from accounts.errors import VersionConflict
from accounts.principal import Principal
from billing.models import Plan
from memory import usage
from memory.embeddings.scheduling import schedule_embedding
from memory.models import Note, NoteLink, NoteRevision, NoteStatus, Project
from memory.screening import guard
from memory.shapes.results import Note as NoteShape

REVISIONED_FIELDS = ("type", "status", "title", "body", "tags", "importance")
# An edit of any of these answers a needs-review flag (memory.store.code): the note was looked at.
REVIEW_CLEARING_FIELDS = frozenset({"title", "body", "type", "status", "paths"})
_WS = re.compile(r"\s+")


@overload
def rfc3339(value: datetime) -> str: ...
@overload
def rfc3339(value: datetime | None) -> str | None: ...
def rfc3339(value: datetime | None) -> str | None:
    if value is None:
        return None
    return str(value.astimezone(UTC).isoformat().replace("+00:00", "Z"))


def content_hash(body: str) -> str:
    """Hash of the body with case and whitespace folded: equal hashes are the same statement."""
    normalized = _WS.sub(" ", body.strip().lower())
    return hashlib.sha256(normalized.encode()).hexdigest()


def note_dict(note: Note, *, body: bool = True) -> NoteShape:
    """The contract's note object. Expects project (and superseded_by) selected or cached."""
    data: NoteShape = {
        "id": note.public_id,
        "project": note.project.slug,
        "type": note.type,
        "status": note.status,
        "title": note.title,
        "version": note.version,
        "tags": list(note.tags),
        "importance": note.importance,
        "visibility": note.visibility,
        "source": note.source,
        "created_at": rfc3339(note.created_at),
        "updated_at": rfc3339(note.updated_at),
    }
    if body:
        data["body"] = note.body
    else:
        data["body_chars"] = len(note.body)
    if note.superseded_by_id is not None:
        data["superseded_by"] = note.superseded_by.public_id if note.superseded_by else None
    supersedes = getattr(note, "supersedes_ids", None)
    if supersedes is None:
        supersedes = list(note.supersedes.values_list("public_id", flat=True)) if note.pk else []
    if supersedes:
        data["supersedes"] = supersedes
    if note.deleted_at is not None:
        data["deleted_at"] = rfc3339(note.deleted_at)
    if note.paths:
        data["paths"] = list(note.paths)
    if note.review_flagged_at is not None:
        data["needs_review"] = {"commit": note.review_commit, "flagged_at": rfc3339(note.review_flagged_at)}
    return data


def excerpt(text: str, limit: int) -> str:
    text = _WS.sub(" ", text).strip()
    if len(text) <= limit:
        return text
    cut = text[: max(0, limit - 1)]
    space = cut.rfind(" ")
    if space > limit * 0.6:
        cut = cut[:space]
    return cut.rstrip(" ,.;:") + "…"


DEFAULT_IMPORTANCE: dict[str, float] = {"constraint": 0.8, "decision": 0.7, "architecture": 0.7}


@dataclass
class Memory:
    """One statement to remember, already validated."""

    content: str
    title: str
    type: str
    tags: list[str]
    importance: float | None
    visibility: str
    source: str
    supersedes: list[str] = field(default_factory=list)
    force: bool = False
    paths: list[str] = field(default_factory=list)


def create_note(
    principal: Principal,
    project: Project,
    memory: Memory,
    status: str = NoteStatus.CURRENT,
    *,
    plan: Plan | None = None,
) -> Note:
    """Write one new note as given, within the plan's cap, screened as stored, audited, embedded after
    commit. Every path that creates a single note goes through here (bulk import has its own).
    `plan`: the team's plan when the caller read it already (one query fewer)."""
    usage.require_notes(principal.team_id, plan=plan)
    source = memory.source or principal.client_name
    # Screened as stored: derived titles, normalised tags, assembled handoff bodies.
    guard.stored(
        principal,
        {
            "title": memory.title,
            "body": memory.content,
            "tags": memory.tags,
            "paths": memory.paths,
            "source": source,
            "last_edited_client": principal.client_name,
        },
    )
    now = timezone.now()
    note = Note.objects.create(
        team_id=principal.team_id,
        project=project,
        author_id=principal.user_id,
        last_edited_by_id=principal.user_id,
        type=memory.type,
        status=status,
        title=memory.title,
        body=memory.content,
        tags=memory.tags,
        paths=memory.paths,
        importance=memory.importance
        if memory.importance is not None
        else DEFAULT_IMPORTANCE.get(memory.type, 0.5),
        visibility=memory.visibility,
        source=source,
        last_edited_client=principal.client_name,
        content_hash=content_hash(memory.content),
        created_at=now,
        updated_at=now,
    )
    audit.record(
        principal,
        "note.created",
        project_id=project.pk,
        project_slug=project.slug,
        object_id=note.public_id,
        type=note.type,
    )
    schedule_embedding([note.pk])
    return note


Changes = dict[str, Any] | Callable[[Note], dict[str, Any]]


def edit_note(
    note: Note,
    principal: Principal,
    changes: Changes,
    *,
    expected_version: int | None = None,
    max_revisions: int,
    audit_as: str | None = "note.updated",
    **detail: Any,
) -> Note:
    """Apply `changes` as one new version: lock the row, check the version, keep the previous state
    as a revision, bump the version, prune old revisions, and write the audit row `audit_as` with
    `detail` (None only for an operation over many notes that audits once itself). Call inside a
    transaction.

    Changes that depend on the current content (append, tag merges) pass a function of the locked
    row, so concurrent edits build on each other instead of overwriting each other."""
    locked = Note.objects.select_for_update().get(pk=note.pk)
    if expected_version is not None and locked.version != expected_version:
        raise VersionConflict(
            f"Note {locked.public_id} is at version {locked.version}, not the expected_version "
            f"{expected_version}. Read the note again and redo the edit "
            f"on version {locked.version}.",
            current_version=locked.version,
            expected_version=expected_version,
        )
    values = dict(changes(locked) if callable(changes) else changes)
    # The values as they will be stored: a patch, a tag merge or a restatement combines the current
    # text with the new, and the combination may be a secret neither part was.
    # The client name comes from the caller (MCP clientInfo) and is stored too.
    guard.stored(principal, {**values, "last_edited_client": principal.client_name})
    NoteRevision.objects.create(
        note=locked,
        version=locked.version,
        # The revision is the state at its version: who made that version, and through which client.
        edited_by_id=locked.last_edited_by_id or locked.author_id,
        client=locked.last_edited_client or locked.source,
        created_at=locked.updated_at,
        **{field: getattr(locked, field) for field in REVISIONED_FIELDS},
    )
    now = timezone.now()
    if "body" in values:
        values["content_hash"] = content_hash(values["body"])
    if REVIEW_CLEARING_FIELDS.intersection(values):
        # Someone looked at the note again after the code changed: the review flag is answered.
        values.update(review_commit="", review_flagged_at=None)
    values.update(
        updated_at=now,
        last_edited_by_id=principal.user_id,
        last_edited_client=principal.client_name,
        version=F("version") + 1,
    )
    # The version filter makes the update conditional even if a caller forgot the row lock.
    updated = Note.objects.filter(pk=locked.pk, version=locked.version).update(**values)
    if updated != 1:
        raise VersionConflict(f"Note {locked.public_id} changed while it was being edited; retry.")
    prune_revisions([locked.pk], max_revisions)
    if audit_as is not None:
        audit.record(
            principal,
            audit_as,
            project_id=note.project_id,
            project_slug=note.project.slug,
            object_id=note.public_id,
            **detail,
        )
    if "body" in values or "title" in values:
        schedule_embedding([locked.pk])
    locked.refresh_from_db()
    return locked


def prune_revisions(note_ids: list[int], keep: int) -> None:
    """Keep the newest `keep` revisions of each note, in one statement."""
    if not note_ids:
        return
    with connection.cursor() as cursor:
        cursor.execute(
            """
            DELETE FROM memory_noterevision r
            USING (
                SELECT id, row_number() OVER (PARTITION BY note_id ORDER BY version DESC) AS position
                FROM memory_noterevision WHERE note_id = ANY(%s)
            ) ranked
            WHERE r.id = ranked.id AND ranked.position > %s
            """,
            [note_ids, keep],
        )


def inbound_link_counts(note_pks: list[int]) -> dict[int, int]:
    """How many links point at each of these notes (a ranking signal)."""
    if not note_pks:
        return {}
    rows = NoteLink.objects.filter(to_note_id__in=note_pks).values("to_note_id").annotate(n=Count("id"))
    return {row["to_note_id"]: row["n"] for row in rows}
