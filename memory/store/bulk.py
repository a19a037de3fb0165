"""One change applied to many notes of a project: retag, mark historical, delete.

Each note is edited exactly as update_note / delete_note edit one (locked row, version check,
revision, screening of the stored values, audit row), inside its own savepoint: a note that fails
(a version conflict, a note that is gone, too many tags) is reported and leaves nothing behind, and
the others still apply. A refusal by the screening gate is about the request, not a note: it refuses
the whole call and nothing is written.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.errors import InvalidArgument, NotFound, VersionConflict
from accounts.principal import Principal
from memory import inputs, registry, validation
from memory.models import Note, NoteStatus
from memory.notes.lifecycle import Changes, edit_note
from memory.notes.scoping import echo, project_for
from memory.screening import guard
from memory.shapes import results_review
from memory.store.common import checked_version, max_revisions

RETAG, MARK_HISTORICAL, DELETE = inputs.BULK_ACTIONS


def _tag_list(values: Any, field: str) -> list[str]:
    if values is None:
        return []
    if not isinstance(values, list):
        raise InvalidArgument(f"`{field}` must be a list of tags, e.g. ['auth'].")
    cleaned = [validation.tag_name(value, field) for value in values]
    if len(cleaned) > inputs.TAGS.max_items:
        raise InvalidArgument(f"`{field}` holds {len(cleaned)} tags; the limit is {inputs.TAGS.max_items}.")
    return list(dict.fromkeys(cleaned))


def _versions(values: Any, ids: list[str]) -> dict[str, int]:
    if values is None:
        return {}
    if not isinstance(values, dict):
        raise InvalidArgument("`expected_versions` must map note ids to versions, e.g. {'n_7Kx2…': 3}.")
    versions: dict[str, int] = {}
    for note_id, version in values.items():
        clean_id = validation.note_id(note_id, "expected_versions")
        if clean_id not in ids:
            raise InvalidArgument(f"`expected_versions` names {echo(clean_id)}, which is not in `ids`.")
        checked = checked_version(version)
        if checked is not None:
            versions[clean_id] = checked
    return versions


def _retagged(tags: list[str], add: list[str], remove: list[str]) -> list[str]:
    kept = [tag for tag in tags if tag not in remove]
    merged = list(dict.fromkeys([*kept, *add]))
    if len(merged) > inputs.TAGS.max_items:
        raise InvalidArgument(f"The note would have {len(merged)} tags; at most {inputs.TAGS.max_items}.")
    return merged


@registry.write
def bulk_update_notes(
    principal: Principal,
    project: str,
    ids: list[str],
    action: str,
    add_tags: list[str] | None = None,
    remove_tags: list[str] | None = None,
    reason: str | None = None,
    expected_versions: dict[str, int] | None = None,
) -> results_review.BulkUpdated:
    """Apply `action` (retag, mark_historical, delete) to each of `ids` in `project`.

    Returns the ids changed, the ids already in the wanted state (`unchanged`) and each failure with
    its error code and message; a failed note is left exactly as it was."""
    target = project_for(principal, project)
    wanted = validation.note_ids(ids)
    name = validation.choice(action, "action", inputs.BULK_ACTIONS)
    add = _tag_list(add_tags, "add_tags")
    remove = _tag_list(remove_tags, "remove_tags")
    if name == RETAG and not add and not remove:
        raise InvalidArgument("`retag` needs `add_tags`, `remove_tags` or both.")
    if name != RETAG and (add or remove):
        raise InvalidArgument("`add_tags` and `remove_tags` apply to action='retag' only.")
    clean_reason = validation.text(reason, "reason", limit=inputs.DELETE_REASON.max_length)
    if clean_reason and name != DELETE:
        raise InvalidArgument("`reason` applies to action='delete' only.")
    versions = _versions(expected_versions, wanted)
    # What every note will store, judged once before the first write (the wrapper judged it as sent).
    guard.stored(principal, {"tags": add, "delete_reason": clean_reason})

    found = {
        note.public_id: note
        for note in Note.objects.visible_to(principal)
        .live()
        .filter(project=target, public_id__in=wanted)
        .select_related("project")
    }
    revision_cap = max_revisions(principal)
    updated: list[str] = []
    unchanged: list[str] = []
    failed: list[results_review.BulkFailure] = []
    for note_id in wanted:
        note = found.get(note_id)
        if note is None:
            error = NotFound(f"No note {echo(note_id)} is visible in project {target.slug!r}.")
            failed.append({"id": note_id, "code": error.code, "message": error.message})
            continue
        try:
            with transaction.atomic():
                changed = _apply(principal, note, name, add, remove, clean_reason, versions, revision_cap)
        except (VersionConflict, InvalidArgument, NotFound) as error:
            failed.append({"id": note_id, "code": error.code, "message": error.message})
            continue
        (updated if changed else unchanged).append(note_id)
    return {
        "project": target.slug,
        "action": name,
        "updated": updated,
        "unchanged": unchanged,
        "failed": failed,
    }


def _apply(
    principal: Principal,
    note: Note,
    action: str,
    add: list[str],
    remove: list[str],
    reason: str,
    versions: dict[str, int],
    revision_cap: int,
) -> bool:
    """Edit one note; False when it is already as asked (no new version)."""
    expected = versions.get(note.public_id)
    if expected is not None and note.version != expected:
        raise VersionConflict(
            f"Note {note.public_id} is at version {note.version}, not {expected}: it changed since the "
            "page was loaded. Reload and choose again.",
            current_version=note.version,
            expected_version=expected,
        )
    changes: Changes
    detail: dict[str, Any]
    if action == RETAG:
        if _retagged(list(note.tags), add, remove) == list(note.tags):
            return False

        def retag(current: Note) -> dict[str, Any]:
            return {"tags": _retagged(list(current.tags), add, remove)}

        changes = retag
        event, detail = "note.updated", {"fields": ["tags"]}
    elif action == MARK_HISTORICAL:
        if note.status == NoteStatus.HISTORICAL:
            return False
        changes = {"status": NoteStatus.HISTORICAL}
        event, detail = "note.updated", {"fields": ["status"]}
    else:
        changes = {"deleted_at": timezone.now(), "delete_reason": reason}
        event, detail = "note.deleted", {}
    edit_note(
        note,
        principal,
        changes,
        expected_version=expected,
        max_revisions=revision_cap,
        audit_as=event,
        bulk=action,
        **detail,
    )
    return True
