"""remember's algorithm: duplicate → restatement → conflict → create, with candidates from indexes."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

import numpy as np
from django.db import connection
from django.db.models import QuerySet
from django.db.models.functions import Upper

from accounts.errors import NotFound
from accounts.principal import Principal
from billing.models import Plan
from memory import limits
from memory.capture import lexicon
from memory.capture.judgement import Judgement, Relation, judge
from memory.models import Note, NoteStatus, NoteType, Project
from memory.notes.lifecycle import Memory, content_hash, create_note, edit_note, note_dict
from memory.notes.scoping import echo
from memory.recall import retrieval, search, semantic
from memory.recall.search import Hit
from memory.recall.semantic import embedding_text
from memory.shapes import results

CANDIDATE_LIMIT = 10
SEMANTIC_CANDIDATES = 5
CANDIDATE_COSINE = 0.75  # semantic neighbours this close join the lexical checks
SIMILAR_COSINE = 0.84  # created notes this close to another (title + body vectors) are flagged for review
TITLE_CANDIDATE_LIMIT = 5
NEIGHBOUR_LIMIT = 5
REVIEWED_TYPES = frozenset({NoteType.DECISION, NoteType.CONSTRAINT, NoteType.ARCHITECTURE})
LIVE_STATUSES = (NoteStatus.CURRENT, NoteStatus.DISPUTED, NoteStatus.PENDING)


def live_notes(principal: Principal, project: Project) -> QuerySet[Note]:
    return Note.objects.visible_to(principal).live().filter(project=project, status__in=LIVE_STATUSES)


def candidates(
    principal: Principal, project: Project, text: str, title: str, exclude: set[int]
) -> list[Note]:
    """Existing live notes that might say the same thing, through indexes only: an OR-match of the
    text's terms on the full-text GIN index (a bounded set of them: search.loosely_matching), plus
    titles close to this one on the trigram index."""
    pool = live_notes(principal, project).exclude(pk__in=exclude).select_related("project")
    found = [hit.note for hit in search.ranked_loosely(pool, text, CANDIDATE_LIMIT)]
    similar_titles = (
        pool.exclude(pk__in=[n.pk for n in found])
        .annotate(upper_title=Upper("title"))
        .filter(upper_title__trigram_similar=title.upper())
        .order_by("-updated_at")[:TITLE_CANDIDATE_LIMIT]
    )
    return [*found, *similar_titles]


def candidate_cosines(notes: list[Note], text: str) -> dict[int, float]:
    """Cosine of the new text's document vector (already computed and cached by the semantic candidate
    lookup) to each candidate's stored embedding: the judgement's second signal, where both exist."""
    found = semantic.vector_for(text, "document") if notes else None
    if found is None:
        return {}
    model_id, vector = found
    query = np.asarray(vector, dtype=np.float32)
    rows = Note.objects.filter(
        pk__in=[note.pk for note in notes], embedding_model=model_id, embedding__isnull=False
    ).values_list("pk", "embedding")
    cosines: dict[int, float] = {}
    for pk, embedding in rows:
        stored = np.asarray(embedding, dtype=np.float32)
        norms = float(np.linalg.norm(stored) * np.linalg.norm(query))
        if stored.shape == query.shape and norms > 0:
            cosines[pk] = float(stored @ query) / norms
    return cosines


def neighbours(principal: Principal, project: Project, note: Note) -> list[results.Neighbour]:
    """Same-type live notes a model should review against a new decision / constraint / architecture note."""
    pool = live_notes(principal, project).filter(type=note.type).exclude(pk=note.pk).select_related("project")
    found = [hit.note for hit in search.ranked_loosely(pool, f"{note.title} {note.body}", NEIGHBOUR_LIMIT)]
    if len(found) < NEIGHBOUR_LIMIT:
        found += list(
            pool.exclude(pk__in=[n.pk for n in found]).order_by("-updated_at")[: NEIGHBOUR_LIMIT - len(found)]
        )
    return [{"id": n.public_id, "title": n.title, "status": n.status} for n in found]


def resolve_supersedes(principal: Principal, project: Project, ids: list[str]) -> list[Note]:
    found = {
        n.public_id: n
        for n in Note.objects.visible_to(principal).live().filter(project=project, public_id__in=ids)
    }
    missing = [i for i in ids if i not in found]
    if missing:
        raise NotFound(
            # echo (issue 9, the gate): a message never repeats a long argument in full.
            f"`supersedes` names notes not found in project {project.slug!r}: "
            f"{', '.join(echo(i) for i in missing)}. "
            "Use ids of live notes of this project."
        )
    return [found[i] for i in ids]


_LEADING_LABEL = re.compile(
    r"^\s*(?:"
    + "|".join(re.escape(label) for label in lexicon.STATEMENT_LABELS)
    + r")\s*[:\-\u2013\u2014]\s*"
)


def statement_key(text: str) -> str:
    """The statement with what does not change its meaning folded away: compatibility forms, case,
    leading labels ("Note:", "FYI:", "Decision:") and punctuation (a trailing "!", quotes, commas).

    Symbols (< > = + % $) and a minus before a digit stay: "a < b" and "a > b" are different facts.
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    while (labelled := _LEADING_LABEL.match(folded)) is not None:
        folded = folded[labelled.end() :]
    kept = [
        " " if unicodedata.category(ch).startswith("P") and not _minus_sign(folded, i) else ch
        for i, ch in enumerate(folded)
    ]
    return " ".join("".join(kept).split())


def _minus_sign(text: str, i: int) -> bool:
    return (
        text[i] == "-" and i + 1 < len(text) and text[i + 1].isdigit() and (i == 0 or text[i - 1].isspace())
    )


def lock_statements(project: Project, contents: Iterable[str]) -> None:
    """Hold, until the transaction ends, the right to judge and store these statements in `project`.

    Without it two callers remembering one statement at once both find no duplicate and both insert.
    The lock is per project and normalised statement (statement_key), so spellings of one statement
    that differ only in case, punctuation or a leading label wait for each other, and unrelated writes
    never do. A caller that stores several statements takes all its locks up front, in one order,
    before it writes anything: every note write also takes the project row's lock (the change-sequence
    trigger), and a statement lock requested after that could complete a cycle with a remember holding it.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("lock_statements needs a transaction: the lock is released at its end")
    keys = sorted({_statement_lock_key(project.pk, statement_key(content)) for content in contents})
    with connection.cursor() as cursor:
        for key in keys:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def _statement_lock_key(project_pk: int, statement: str) -> int:
    # A collision of two 64-bit keys costs only an unneeded wait, never a wrong answer.
    raw = hashlib.sha256(f"knownbase.remember:{project_pk}:{statement}".encode()).digest()
    return int.from_bytes(raw[:8], "big", signed=True)


def remember(
    principal: Principal,
    project: Project,
    memory: Memory,
    *,
    max_revisions: int,
    use_semantic: bool = False,
    plan: Plan | None = None,
) -> results.Remembered | results.RememberConflict:
    lock_statements(project, [memory.content])
    old_notes = resolve_supersedes(principal, project, memory.supersedes)
    digest = content_hash(memory.content)
    exact = live_notes(principal, project).filter(content_hash=digest).select_related("project").first()
    if exact is not None and exact.pk not in {n.pk for n in old_notes}:
        return _duplicate(exact)

    close: list[Hit] = []
    vectors_work = False  # the provider answered: candidate cosines can be read without a second try
    if use_semantic:
        pool = live_notes(principal, project).exclude(pk__in=[n.pk for n in old_notes])
        # The note's own document text: its vector is then cached for the embedding task to reuse.
        text = embedding_text(memory.title, memory.content)
        found_semantic = retrieval.semantic_hits(pool, text, SEMANTIC_CANDIDATES, kind="document")
        vectors_work = found_semantic is not None
        close = [
            hit for hit in (found_semantic[0] if found_semantic else []) if hit.relevance >= CANDIDATE_COSINE
        ]

    if not memory.force:
        found = candidates(
            principal, project, memory.content, memory.title, exclude={n.pk for n in old_notes}
        )
        known = {note.pk for note in found}
        found += [hit.note for hit in close if hit.note.pk not in known]
        cosines = (
            candidate_cosines(found, embedding_text(memory.title, memory.content)) if vectors_work else {}
        )
        # The lock above is keyed on the normalised statement, so a racing variant stored before us is
        # visible here: one that says exactly this, up to case, punctuation and labels, is this note.
        statement = statement_key(memory.content)
        for note in found:
            if statement_key(note.body) == statement:
                return _duplicate(note)
        judged = [
            (note, judge(memory.content, note.body, cosines.get(note.pk), same_type=note.type == memory.type))
            for note in found
        ]
        for note, judgement in judged:
            if judgement.relation is Relation.DUPLICATE:
                return _duplicate(note)
        for note, judgement in judged:
            if judgement.relation is Relation.RESTATEMENT:
                return _restate(principal, note, memory, max_revisions)
        for note, judgement in judged:
            if judgement.relation is Relation.CONFLICT:
                return _conflict(project, note, memory, judgement)

    note = create_note(principal, project, memory, plan=plan)
    # Known here, so note_dict need not ask the database which notes this one replaces.
    note.supersedes_ids = [old.public_id for old in old_notes]  # type: ignore[attr-defined]
    result: results.Remembered = {"status": "created", "note": note_dict(note, body=False)}
    if old_notes:
        for old in old_notes:
            edit_note(
                old,
                principal,
                {"status": NoteStatus.SUPERSEDED, "superseded_by_id": note.pk},
                max_revisions=max_revisions,
                audit_as="note.superseded",
                by=note.public_id,
            )
        result["superseded"] = [old.public_id for old in old_notes]
        result["note"]["supersedes"] = result["superseded"]
    # Cosine is a second signal beside the lexical checks: a close meaning the words did not catch
    # is shown for review, never merged or dropped silently.
    similar: list[results.Similar] = [
        {"id": hit.note.public_id, "title": hit.note.title, "similarity": round(hit.relevance, 3)}
        for hit in close
        if hit.relevance >= SIMILAR_COSINE
    ]
    if similar:
        result["similar"] = similar
        result["review_required"] = True
        result["message"] = (
            "Stored. Notes with a very similar meaning exist (see `similar`): if one says the same, "
            "delete_note the new one; if one is now wrong, remember(..., supersedes=[id])."
        )
    if note.type in REVIEWED_TYPES:
        result["review_required"] = True
        result["neighbours"] = neighbours(principal, project, note)
        result["message"] = (
            "Stored. Check the neighbours: if one says the opposite, resolve it with "
            "remember(..., supersedes=[id]) or save_note(id=..., status='historical')."
        )
    return result


def _duplicate(note: Note) -> results.Remembered:
    return {
        "status": "duplicate",
        "note": note_dict(note, body=False),
        "message": f"Nothing stored: note {note.public_id} already says this.",
    }


def _restate(principal: Principal, note: Note, memory: Memory, max_revisions: int) -> results.Remembered:

    def restated(current: Note) -> dict[str, Any]:
        changes: dict[str, Any] = {
            "body": memory.content,
            "tags": list(dict.fromkeys([*current.tags, *memory.tags])),
        }
        if memory.paths:
            changes["paths"] = list(dict.fromkeys([*current.paths, *memory.paths]))[
                : limits.NOTE_PATHS.max_items
            ]
        if memory.title and memory.title != current.title:
            changes["title"] = memory.title
        if memory.importance is not None:
            changes["importance"] = memory.importance
        return changes

    updated = edit_note(note, principal, restated, max_revisions=max_revisions, via="remember")
    return {
        "status": "updated",
        "note": note_dict(updated, body=False),
        "message": f"Restated an existing note: {note.public_id} now holds the longer text (old text kept as a revision).",
    }


def _conflict(project: Project, note: Note, memory: Memory, judgement: Judgement) -> results.RememberConflict:
    return {
        "status": "conflict",
        "note": note_dict(note, body=True),
        "message": (
            f"Nothing stored: this contradicts note {note.public_id} ({judgement.reason}). "
            "If the new statement replaces it, call "
            f"remember again with supersedes=['{note.public_id}']. If both are true, call remember again "
            "with force=true."
        ),
        "resolve": {
            "supersede": {"supersedes": [note.public_id]},
            "keep_both": {"force": True},
        },
    }
