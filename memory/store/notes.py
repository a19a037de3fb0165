"""Notes one by one: read, list, create, update, patch, delete and restore."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from accounts.errors import Forbidden, InvalidArgument
from accounts.principal import MODERATE, Principal
from memory import idempotency, inputs, registry, usage, validation
from memory.embeddings.scheduling import schedule_embedding
from memory.models import (
    Note,
)
from memory.notes import lifecycle, listing, reinforcement
from memory.notes import paths as code_paths
from memory.notes.lifecycle import edit_note, note_dict
from memory.notes.scoping import note_for, project_for
from memory.shapes import results
from memory.store.common import checked_version, max_revisions, memory_from_args


@registry.read
def get_notes(principal: Principal, ids: list[str], include_body: bool | None = True) -> results.NotesBatch:
    wanted = validation.note_ids(ids)
    with_body = True if include_body is None else validation.flag(include_body, "include_body")
    found = {
        note.public_id: note
        for note in Note.objects.visible_to(principal)
        .live()
        .filter(public_id__in=wanted)
        .select_related("project", "superseded_by")
        .prefetch_related("supersedes")
    }
    for note in found.values():
        note.supersedes_ids = [n.public_id for n in note.supersedes.all()]  # type: ignore[attr-defined]
    reinforcement.record(n.pk for n in found.values())
    return {
        "notes": [note_dict(found[i], body=with_body) for i in wanted if i in found],
        "missing": [i for i in wanted if i not in found],
    }


@registry.read
def get_note(principal: Principal, id: str, include_body: bool | None = True) -> results.NoteResult:
    """One live note the caller can see; not_found for anything else."""
    with_body = True if include_body is None else validation.flag(include_body, "include_body")
    note = note_for(principal, id)
    reinforcement.record([note.pk])
    return {"note": note_dict(note, body=with_body)}


@registry.read
def list_notes(
    principal: Principal,
    project: str,
    types: list[str] | None = None,
    statuses: list[str] | None = None,
    tag: str | None = None,
    author: str | None = None,
    source: str | None = None,
    updated_after: str | None = None,
    updated_before: str | None = None,
    sort: str | None = None,
    limit: int | None = None,
    offset: int | None = None,
    include_deleted: bool | None = False,
    cursor: str | None = None,
    path: str | None = None,
    needs_review: bool | None = None,
) -> results.NotePage:
    """One page of a project's notes, filtered and sorted, with the total that matched.

    Page with `next_cursor` (keyset: nothing skipped or repeated when notes change between pages)
    or with `next_offset`; a cursor continues the same question, so pass the same filters with it."""
    target = project_for(principal, project)
    notes = Note.objects.visible_to(principal).filter(project=target)
    with_deleted = validation.flag(include_deleted, "include_deleted")
    if not with_deleted:
        notes = notes.live()
    type_filter = validation.choice_list(types, "types", inputs.NOTE_TYPES)
    status_filter = validation.choice_list(statuses, "statuses", inputs.NOTE_STATUSES)
    question: dict[str, Any] = {"types": type_filter, "statuses": status_filter, "deleted": with_deleted}
    if type_filter:
        notes = notes.filter(type__in=type_filter)
    if status_filter:
        notes = notes.filter(status__in=status_filter)
    if tag is not None:
        question["tag"] = validation.tag_name(tag, "tag")
        notes = notes.filter(tags__contains=[question["tag"]])
    if author is not None:
        question["author"] = validation.text(
            author, "author", limit=inputs.EMAIL.max_length, required=True
        ).lower()
        notes = notes.filter(author__email=question["author"])
    if source is not None:
        question["source"] = validation.text(source, "source", limit=inputs.SOURCE.max_length)
        notes = notes.filter(source=question["source"])
    if path is not None:
        # Notes bound to a glob matching this file (or the very glob): matched in Python over the
        # project's bound notes, as globs are not something an index answers.
        question["path"] = code_paths.normalise(path, "path")
        notes = notes.filter(pk__in=_bound_to(notes, question["path"]))
    if needs_review is not None:
        question["needs_review"] = validation.flag(needs_review, "needs_review")
        notes = notes.filter(review_flagged_at__isnull=not question["needs_review"])
    if updated_after is not None:
        question["after"] = validation.timestamp(updated_after, "updated_after")
        notes = notes.filter(updated_at__gt=question["after"])
    if updated_before is not None:
        question["before"] = validation.timestamp(updated_before, "updated_before")
        notes = notes.filter(updated_at__lt=question["before"])
    sort_name = validation.choice(sort or inputs.NOTE_SORTS[0], "sort", inputs.NOTE_SORTS)
    question["sort"] = sort_name
    order = listing.Order(
        field="updated_at" if sort_name.endswith("updated") else "importance",
        descending=sort_name.startswith("-"),
    )
    notes = notes.order_by(*order.order_by())
    count = validation.declared_int(limit, "limit", inputs.LIST_LIMIT)
    if cursor is not None and offset is not None:
        raise InvalidArgument("Pass either `cursor` or `offset`, not both: prefer `cursor`.")
    start = validation.declared_int(offset, "offset", inputs.COUNT)
    total = notes.count()
    if cursor is not None:
        notes = notes.filter(listing.decode(cursor, target, question, order))
    rows = list(
        notes.select_related("project", "superseded_by").prefetch_related("supersedes")[
            start : start + count + 1
        ]
    )
    page, more = rows[:count], len(rows) > count
    for note in page:
        note.supersedes_ids = [n.public_id for n in note.supersedes.all()]  # type: ignore[attr-defined]
    return {
        "project": target.slug,
        "notes": [note_dict(note, body=False) for note in page],
        "total": total,
        "next_cursor": listing.encode(target, question, order, page[-1]) if more else None,
        "next_offset": start + count if more and cursor is None else None,
    }


def _bound_to(notes: QuerySet[Note], path: str) -> list[int]:
    bound = notes.exclude(paths=[]).values_list("pk", "paths")
    return [pk for pk, patterns in bound if path in patterns or code_paths.binds(patterns, [path])]


@registry.write
def create_note(
    principal: Principal,
    project: str,
    title: str,
    body: str,
    type: str | None = None,
    status: str | None = None,
    tags: list[str] | None = None,
    importance: float | None = None,
    visibility: str | None = None,
    idempotency_key: str | None = None,
    paths: list[str] | None = None,
) -> results.NoteResult:
    """Write a note exactly as given: no duplicate or conflict judgement (remember does that)."""
    target = project_for(principal, project)
    memory = memory_from_args(
        body,
        type=type,
        title=validation.title(title, required=True),
        tags=tags,
        importance=importance,
        visibility=visibility,
        source=None,
        content_field="body",
        paths=paths,
    )
    clean_status = validation.note_status(status) if status else inputs.DEFAULT_STATUS

    def work() -> results.NoteResult:
        return {"note": note_dict(lifecycle.create_note(principal, target, memory, status=clean_status))}

    return idempotency.run_once(
        principal,
        "create_note",
        idempotency_key,
        work,
        project=target,
        request={**asdict(memory), "status": clean_status},
    )


@registry.write(staff=MODERATE)
def update_note(
    principal: Principal,
    id: str,
    title: str | None = None,
    body: str | None = None,
    type: str | None = None,
    status: str | None = None,
    tags: list[str] | None = None,
    importance: float | None = None,
    visibility: str | None = None,
    expected_version: int | None = None,
    paths: list[str] | None = None,
) -> results.NoteResult:
    """Change the given fields of a note, keeping the old state as a revision. `paths` replaces the
    note's globs ([] unbinds it)."""
    note = note_for(principal, id)
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
    if paths is not None:
        changes["paths"] = code_paths.note_patterns(paths)
    if visibility is not None:
        changes["visibility"] = validation.visibility(visibility)
        if changes["visibility"] != note.visibility and note.author_id != principal.user_id:
            raise Forbidden("Only the note's author can change its visibility.")
    if not changes:
        raise InvalidArgument(
            "Nothing to change: pass at least one of title, body, type, status, tags, importance, "
            "visibility, paths."
        )
    updated = edit_note(
        note,
        principal,
        changes,
        expected_version=checked_version(expected_version),
        max_revisions=max_revisions(principal),
        fields=sorted(changes),
    )
    return {"note": note_dict(updated)}


@registry.write
def patch_note(
    principal: Principal,
    id: str,
    op: str,
    text: str,
    find: str | None = None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> results.NoteResult:
    note = note_for(principal, id)
    validation.choice(op, "op", inputs.PATCH_OPS)
    if not isinstance(text, str):
        raise InvalidArgument("`text` must be a string.")
    if op == "replace" and (not isinstance(find, str) or not find):
        raise InvalidArgument("`replace` needs `find`: the exact text to replace, copied from the note body.")
    if op != "replace" and find is not None:
        raise InvalidArgument("`find` applies to op='replace' only.")
    if op != "replace" and not text.strip():
        raise InvalidArgument("`text` must not be empty.")

    version = checked_version(expected_version)

    def patched(current: Note) -> dict[str, Any]:
        return {"body": validation.body(_patched_body(current, op, text, find), "text")}

    def work() -> results.NoteResult:
        updated = edit_note(
            note,
            principal,
            patched,
            expected_version=version,
            max_revisions=max_revisions(principal),
            audit_as="note.patched",
            op=op,
        )
        return {"note": note_dict(updated)}

    request = {"id": note.public_id, "op": op, "text": text, "find": find, "expected_version": version}
    return idempotency.run_once(
        principal, "patch_note", idempotency_key, work, project=note.project, request=request
    )


def _patched_body(note: Note, op: str, text: str, find: str | None) -> str:
    if op == "replace":
        assert find is not None
        occurrences = note.body.count(find)
        if occurrences == 0:
            raise InvalidArgument(
                f"`find` text does not occur in note {note.public_id}; nothing was changed. "
                "Copy it exactly from the note's current body."
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
def delete_note(
    principal: Principal, id: str, reason: str | None = None, expected_version: int | None = None
) -> results.NoteStatusResult:
    note = note_for(principal, id)
    clean_reason = validation.text(reason, "reason", limit=inputs.DELETE_REASON.max_length)
    updated = edit_note(
        note,
        principal,
        {"deleted_at": timezone.now(), "delete_reason": clean_reason},
        expected_version=checked_version(expected_version),
        max_revisions=max_revisions(principal),
        audit_as="note.deleted",
    )
    return {"status": "deleted", "note": note_dict(updated, body=False)}


@registry.write(staff=MODERATE)
def restore_note(
    principal: Principal, id: str, idempotency_key: str | None = None
) -> results.NoteStatusResult:
    note = note_for(principal, id, include_deleted=True)

    def work() -> results.NoteStatusResult:
        # Inside the work: a retry finds the note restored already and replays the first answer.
        if note.deleted_at is None:
            raise InvalidArgument(f"Note {note.public_id} is not deleted.")
        usage.require_notes(principal.team_id)
        updated = edit_note(
            note,
            principal,
            {"deleted_at": None, "delete_reason": ""},
            max_revisions=max_revisions(principal),
            audit_as="note.restored",
        )
        schedule_embedding([note.pk])
        return {"status": "restored", "note": note_dict(updated, body=False)}

    return idempotency.run_once(
        principal, "restore_note", idempotency_key, work, project=note.project, request={"id": note.public_id}
    )
