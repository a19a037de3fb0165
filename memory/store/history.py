"""A note's revisions: what it said before each edit, and who edited it."""

from __future__ import annotations

from accounts import audit
from accounts.errors import InvalidArgument, NotFound
from accounts.models import User
from accounts.principal import Principal
from memory import (
    idempotency,
    inputs,
    registry,
    validation,
)
from memory.models import (
    Note,
    NoteRevision,
)
from memory.notes.lifecycle import rfc3339
from memory.notes.scoping import note_for
from memory.shapes import results
from memory.store.common import checked_version
from memory.store.notes import update_note


def _user_emails(user_ids: set[int | None]) -> dict[int, str]:
    ids = {i for i in user_ids if i is not None}
    return dict(User.objects.filter(pk__in=ids).values_list("pk", "email")) if ids else {}


@registry.read
def list_note_revisions(
    principal: Principal, id: str, limit: int | None = None, include_body: bool | None = False
) -> results.RevisionList:
    note = note_for(principal, id)
    count = validation.declared_int(limit, "limit", inputs.REVISIONS_LIMIT)
    with_body = validation.flag(include_body, "include_body")
    revisions = list(note.revisions.order_by("-version")[:count])
    emails = _user_emails({r.edited_by_id for r in revisions})
    rows: list[results.RevisionRow] = []
    for revision in revisions:
        row: results.RevisionRow = {
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
def get_note_revision(principal: Principal, id: str, version: int) -> results.RevisionResult:
    note = note_for(principal, id)
    wanted = validation.declared_int(version, "version", inputs.VERSION, default=1)
    if wanted == note.version:
        source: Note | NoteRevision = note
        editor = note.last_edited_by_id or note.author_id
        created = note.updated_at
    else:
        revision = note.revisions.filter(version=wanted).first()
        if revision is None:
            raise NotFound(
                f"Note {note.public_id} has no stored revision {wanted} (current version {note.version}; "
                "older revisions may have been pruned). List the note's revisions to see what is kept."
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
def restore_note_revision(
    principal: Principal,
    id: str,
    version: int,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> results.RevisionRestored:
    """Make an earlier version's content current again, as a new version (the edit keeps a revision).

    The content fields come back (title, body, type, tags, importance); status and visibility stay as
    they are now, because supersession and disputes are decided after the fact, not by old text."""
    note = note_for(principal, id)
    wanted = validation.declared_int(version, "version", inputs.VERSION, default=1)
    conditional = checked_version(expected_version)

    def work() -> results.RevisionRestored:
        # Inside the work: a retry finds the note moved on by the first restore and replays its answer.
        if wanted == note.version:
            raise InvalidArgument(
                f"Version {wanted} is the current version of note {note.public_id}: nothing to restore."
            )
        revision = note.revisions.filter(version=wanted).first()
        if revision is None:
            raise NotFound(
                f"Note {note.public_id} has no stored revision {wanted} (current version {note.version}; "
                "older revisions may have been pruned). List the note's revisions to see what is kept."
            )
        result = update_note(
            principal,
            note.public_id,
            title=revision.title,
            body=revision.body,
            type=revision.type,
            tags=list(revision.tags),
            importance=revision.importance,
            expected_version=conditional,
        )
        audit.record(
            principal,
            "note.revision_restored",
            project_id=note.project_id,
            project_slug=note.project.slug,
            object_id=note.public_id,
            restored=wanted,
        )
        return {"status": "restored", "restored_version": wanted, "note": result["note"]}

    return idempotency.run_once(
        principal,
        "restore_note_revision",
        idempotency_key,
        work,
        project=note.project,
        request={"id": note.public_id, "version": wanted, "expected_version": conditional},
    )
