"""The conflicts queue: what the team's notes disagree about, as pairs A/B, and settling each pair.

A conflict is one of three things, all between live notes the caller can see:
- `contradicts`: a contradicts link, A (the link's source) against B;
- `supersession`: an unfinished supersession, A replaces B (B.superseded_by is A) but B is still current;
- `disputed`: a note marked disputed that neither of the above pairs with another; B is absent.

Resolutions go through memory.notes.lifecycle.edit_note, so each changed note gets a revision, is screened as
stored and is audited, and the whole resolution is one transaction (the registry's write wrapper).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet

from accounts import audit
from accounts.errors import InvalidArgument, VersionConflict
from accounts.principal import MODERATE, Principal
from memory import inputs, registry, validation
from memory.models import LinkKind, Note, NoteLink, NoteStatus, Project
from memory.notes.lifecycle import edit_note, excerpt, note_dict, rfc3339
from memory.notes.scoping import note_for, project_for
from memory.shapes import results_review
from memory.store.common import checked_version, max_revisions

EXCERPT_CHARS = 280
# Conflicts are few in a healthy project; the bound keeps a neglected one's queue a bounded read.
MAX_PER_KIND = 500


@dataclass(frozen=True)
class Conflict:
    kind: str
    a: Note
    b: Note | None

    @property
    def updated_at(self) -> Any:
        return max(self.a.updated_at, self.b.updated_at) if self.b is not None else self.a.updated_at


@registry.read(staff=MODERATE)
def list_conflicts(
    principal: Principal, project: str | None = None, limit: int | None = None, offset: int | None = None
) -> results_review.ConflictPage:
    """The team's open conflicts (one project's with `project`), most recently changed first."""
    projects = Project.objects.visible_to(principal)
    if project is not None:
        projects = projects.filter(pk=project_for(principal, project).pk)
    count = validation.declared_int(limit, "limit", inputs.CONFLICT_LIMIT)
    start = validation.declared_int(offset, "offset", inputs.COUNT)
    found = sorted(open_conflicts(principal, projects), key=lambda c: (c.updated_at, c.a.pk), reverse=True)
    page = found[start : start + count]
    more = len(found) > start + count
    return {
        "conflicts": [_conflict_dict(conflict) for conflict in page],
        "total": len(found),
        "next_offset": start + count if more else None,
    }


def open_conflicts(principal: Principal, projects: QuerySet[Project]) -> list[Conflict]:
    """Every open conflict among the live notes the caller sees in `projects`, each pair once."""
    live = Note.objects.visible_to(principal).live()
    shown = live.select_related("project", "author", "superseded_by")
    found: dict[frozenset[int], Conflict] = {}
    links = (
        NoteLink.objects.visible_to(principal)
        .filter(kind=LinkKind.CONTRADICTS)
        .filter(Q(from_note__project__in=projects) | Q(to_note__project__in=projects))
        .order_by("-created_at", "-pk")
        .values_list("from_note_id", "to_note_id")[:MAX_PER_KIND]
    )
    unfinished = (
        # `superseded_by` not null first: its index finds the few such notes (35 ms → 0.05 ms at 20,000
        # notes, where the membership test alone walked every current note).
        live.filter(project__in=projects, status=NoteStatus.CURRENT, superseded_by__isnull=False)
        .filter(superseded_by__in=live)
        .order_by("-updated_at")
        .values_list("superseded_by_id", "pk")[:MAX_PER_KIND]
    )
    disputed = live.filter(project__in=projects, status=NoteStatus.DISPUTED).order_by("-updated_at")
    pairs = [("contradicts", a, b) for a, b in links] + [("supersession", a, b) for a, b in unfinished]
    lone = list(disputed.values_list("pk", flat=True)[:MAX_PER_KIND])
    wanted = {pk for _, a, b in pairs for pk in (a, b)} | set(lone)
    notes = {note.pk: note for note in shown.filter(pk__in=wanted)} if wanted else {}
    for kind, a, b in pairs:
        if a in notes and b in notes:
            found.setdefault(frozenset((a, b)), Conflict(kind, notes[a], notes[b]))
    paired = {pk for key in found for pk in key}
    for pk in lone:
        if pk not in paired and pk in notes:
            found[frozenset((pk,))] = Conflict("disputed", notes[pk], None)
    return list(found.values())


def _conflict_dict(conflict: Conflict) -> results_review.Conflict:
    a, b = conflict.a, conflict.b
    if conflict.kind == "contradicts" and b is not None:
        reason = f"{a.public_id} contradicts {b.public_id}"
    elif b is not None:
        reason = f"{a.public_id} replaces {b.public_id}, but {b.public_id} is still current"
    else:
        reason = f"{a.public_id} is marked disputed"
    return {
        "kind": conflict.kind,
        "project": a.project.slug,
        "reason": reason,
        "a": _side(a),
        "b": _side(b) if b is not None else None,
        "resolutions": list(inputs.RESOLUTIONS if b is not None else inputs.LONE_RESOLUTIONS),
        "updated_at": rfc3339(conflict.updated_at),
    }


def _side(note: Note) -> results_review.ConflictSide:
    return {
        "id": note.public_id,
        "project": note.project.slug,
        "title": note.title,
        "excerpt": excerpt(note.body, EXCERPT_CHARS),
        "type": note.type,
        "status": note.status,
        "version": note.version,
        "author": note.author.email if note.author else None,
        "source": note.source,
        "last_edited_client": note.last_edited_client,
        "updated_at": rfc3339(note.updated_at),
    }


@registry.write(staff=MODERATE)
def resolve_conflict(
    principal: Principal,
    a: str,
    b: str | None,
    resolution: str,
    a_version: int | None = None,
    b_version: int | None = None,
) -> results_review.ConflictResolved:
    """Settle the conflict between notes A and B (B absent for a note disputed on its own):

    - a_supersedes_b / b_supersedes_a: the loser becomes superseded by the winner;
    - both_true: the dispute is removed, both stay (or become) current;
    - a_historical / b_historical: that note becomes historical, the other stands.

    In every case the contradicts links between A and B are removed, and the note that stands
    leaves `disputed` and loses a supersession pointer to the other. `a_version` / `b_version` are
    the versions the caller saw: a note changed since is a version_conflict and nothing changes."""
    clean = validation.choice(resolution, "resolution", inputs.RESOLUTIONS)
    expected = {"a": checked_version(a_version), "b": checked_version(b_version)}
    first = note_for(principal, validation.note_id(a, "a"))
    second = note_for(principal, validation.note_id(b, "b")) if b is not None else None
    if second is None and expected["b"] is not None:
        raise InvalidArgument("`b_version` applies only with `b`.")
    if second is None and clean not in inputs.LONE_RESOLUTIONS:
        raise InvalidArgument(f"`{clean}` needs `b`: the id of the note A is in conflict with.")
    if second is not None and second.pk == first.pk:
        raise InvalidArgument("`a` and `b` are the same note: pass the two notes of the conflict.")

    # Lock both rows, in one order, before judging: a concurrent resolution waits, then finds the
    # conflict gone instead of settling it twice.
    locked = {
        note.pk: note
        for note in Note.objects.select_for_update()
        .defer("embedding", "search_document")
        .filter(pk__in=[n.pk for n in (first, second) if n is not None])
        .order_by("pk")
    }
    note_a = locked[first.pk]
    note_b = locked[second.pk] if second is not None else None
    for side, note in (("a", note_a), ("b", note_b)):
        want = expected[side]
        if note is not None and want is not None and note.version != want:
            raise VersionConflict(
                f"Note {note.public_id} is at version {note.version}, not the {side}_version {want}: "
                "it changed since the conflict was shown. Look at it again before resolving.",
                current_version=note.version,
                expected_version=want,
            )
    links = _links_between(note_a, note_b)
    if not _in_conflict(note_a, note_b, links):
        raise InvalidArgument(_not_in_conflict(note_a, note_b))

    changes = _changes(clean, note_a, note_b)
    keep = max_revisions(principal)
    for note, fields in changes:
        if fields:
            edit_note(
                note,
                principal,
                fields,
                max_revisions=keep,
                fields=sorted(f.removesuffix("_id") for f in fields),
                via="resolve_conflict",
            )
    removed = links.delete()[0] if note_b is not None else 0
    audit.record(
        principal,
        "conflict.resolved",
        project_id=note_a.project_id,
        project_slug=note_a.project.slug,
        object_id=note_a.public_id,
        b=note_b.public_id if note_b is not None else None,
        resolution=clean,
        links_removed=removed,
    )
    settled = {
        n.pk: n for n in Note.objects.filter(pk__in=list(locked)).select_related("project", "superseded_by")
    }
    return {
        "status": "resolved",
        "resolution": clean,
        "a": note_dict(settled[note_a.pk], body=False),
        "b": note_dict(settled[note_b.pk], body=False) if note_b is not None else None,
        "links_removed": removed,
    }


def _links_between(a: Note, b: Note | None) -> QuerySet[NoteLink]:
    if b is None:
        return NoteLink.objects.none()
    return NoteLink.objects.filter(kind=LinkKind.CONTRADICTS).filter(
        Q(from_note=a, to_note=b) | Q(from_note=b, to_note=a)
    )


def _in_conflict(a: Note, b: Note | None, links: QuerySet[NoteLink]) -> bool:
    if b is None:
        return a.status == NoteStatus.DISPUTED
    return links.exists() or _unfinished(a, b) or _unfinished(b, a)


def _unfinished(old: Note, new: Note) -> bool:
    """`new` replaces `old`, but `old` is still current."""
    return old.superseded_by_id == new.pk and old.status == NoteStatus.CURRENT


def _not_in_conflict(a: Note, b: Note | None) -> str:
    if b is None:
        return f"Note {a.public_id} is not disputed: there is nothing to resolve (already resolved?)."
    return (
        f"Notes {a.public_id} and {b.public_id} are not in conflict (already resolved?): nothing changed. "
        "Reload the conflicts to see what is still open."
    )


# The note each resolution retires; the other one stands.
RETIRED = {"a_supersedes_b": "b", "b_supersedes_a": "a", "a_historical": "a", "b_historical": "b"}


def _changes(resolution: str, a: Note, b: Note | None) -> list[tuple[Note, dict[str, Any]]]:
    """Each note's field changes for `resolution`; an empty dict leaves that note as it is."""
    if b is None:
        return [(a, {"status": NoteStatus.HISTORICAL} if resolution == "a_historical" else _stands(a, None))]
    if resolution == "both_true":
        return [(a, _stands(a, b)), (b, _stands(b, a))]
    loser, winner = (a, b) if RETIRED[resolution] == "a" else (b, a)
    retired: dict[str, Any] = (
        {"status": NoteStatus.HISTORICAL}
        if resolution.endswith("_historical")
        else {"status": NoteStatus.SUPERSEDED, "superseded_by_id": winner.pk}
    )
    return [(winner, _stands(winner, loser)), (loser, retired)]


def _stands(note: Note, other: Note | None) -> dict[str, Any]:
    """What keeps `note` standing: out of `disputed`, no longer pointed at `other` as its replacement."""
    changes: dict[str, Any] = {}
    if note.status == NoteStatus.DISPUTED:
        changes["status"] = NoteStatus.CURRENT
    if other is not None and note.superseded_by_id == other.pk:
        changes["superseded_by_id"] = None
    return changes
