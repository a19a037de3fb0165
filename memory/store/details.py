"""One note with everything a person reviewing it wants: who wrote it, through which client, whether it
is deleted, and the supersession chain both ways. The dashboard's note page reads this."""

from __future__ import annotations

from accounts.models import User
from accounts.principal import Principal
from memory import registry, validation
from memory.models import Note
from memory.notes.lifecycle import note_dict, rfc3339
from memory.notes.scoping import note_for
from memory.shapes import results_review

# How far the chain is walked each way: a chain longer than this is cut, and says so.
CHAIN_LIMIT = 20


def _chain_entry(note: Note) -> results_review.ChainEntry:
    return {
        "id": note.public_id,
        "project": note.project.slug,
        "title": note.title,
        "status": note.status,
        "version": note.version,
        "updated_at": rfc3339(note.updated_at),
        "deleted": note.deleted_at is not None,
    }


def _newer(principal: Principal, note: Note, limit: int) -> tuple[list[results_review.ChainEntry], bool]:
    """What replaced the note, then what replaced that, …: nearest first. A note the caller cannot see
    ends the walk (its id is not theirs to follow); so does a loop."""
    visible = Note.objects.visible_to(principal).select_related("project")
    seen = {note.pk}
    chain: list[results_review.ChainEntry] = []
    next_pk = note.superseded_by_id
    while next_pk is not None and next_pk not in seen:
        if len(chain) == limit:
            return chain, True
        newer = visible.filter(pk=next_pk).first()
        if newer is None:
            break
        seen.add(newer.pk)
        chain.append(_chain_entry(newer))
        next_pk = newer.superseded_by_id
    return chain, False


def _older(principal: Principal, note: Note, limit: int) -> tuple[list[results_review.ChainEntry], bool]:
    """What the note replaced, and what those replaced, …: breadth first, nearest first, one query a
    generation. Notes the caller cannot see are left out."""
    visible = Note.objects.visible_to(principal).select_related("project")
    seen = {note.pk}
    chain: list[results_review.ChainEntry] = []
    generation = [note.pk]
    while generation:
        older = list(
            visible.filter(superseded_by_id__in=generation).exclude(pk__in=seen).order_by("-updated_at", "pk")
        )
        room = limit - len(chain)
        if len(older) > room:
            chain.extend(_chain_entry(n) for n in older[:room])
            return chain, True
        seen.update(n.pk for n in older)
        chain.extend(_chain_entry(n) for n in older)
        generation = [n.pk for n in older]
    return chain, False


def _emails(user_ids: set[int | None]) -> dict[int, str]:
    ids = {i for i in user_ids if i is not None}
    return dict(User.objects.filter(pk__in=ids).values_list("pk", "email")) if ids else {}


@registry.read
def get_note_details(
    principal: Principal, id: str, include_deleted: bool | None = True
) -> results_review.NoteDetails:
    """A note the caller can see (a deleted one too, unless include_deleted is false), with its author,
    last editor and their clients, the deletion, and the notes it replaced and that replaced it."""
    with_deleted = True if include_deleted is None else validation.flag(include_deleted, "include_deleted")
    note = note_for(principal, id, include_deleted=with_deleted)
    emails = _emails({note.author_id, note.last_edited_by_id})
    newer, newer_cut = _newer(principal, note, CHAIN_LIMIT)
    older, older_cut = _older(principal, note, CHAIN_LIMIT)
    return {
        "note": note_dict(note),
        "author": emails.get(note.author_id) if note.author_id else None,
        "last_edited_by": emails.get(note.last_edited_by_id or note.author_id or 0),
        "last_edited_client": note.last_edited_client or note.source,
        "delete_reason": note.delete_reason if note.deleted_at is not None else None,
        "replaced": older,
        "replaced_more": older_cut,
        "replaced_by": newer,
        "replaced_by_more": newer_cut,
    }
