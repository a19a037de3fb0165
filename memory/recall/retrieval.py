"""One retrieval path for search_notes, get_context's `relevant` section and remember's candidates.

Keyword search (full-text, substring as a last resort) always runs. With semantic retrieval asked
for and available, vector (or scan) candidates are fused with the full-text ones (memory/fusion.py
says how, and how that was chosen). Any failure of the semantic path leaves keyword results.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from django.db import DatabaseError
from django.db.models import QuerySet
from django.utils import timezone

from memory.embeddings import Kind
from memory.models import Note
from memory.notes import paths as code_paths
from memory.notes.lifecycle import inbound_link_counts
from memory.recall import ranking, search, semantic
from memory.recall.fusion import CHOSEN, Fusion
from memory.recall.search import Hit

log = logging.getLogger(__name__)

POOL = 30  # candidates taken from each retriever before fusion


def fuse(text: str, keyword: list[Hit], vector: list[Hit], how: Fusion = CHOSEN) -> list[Hit]:
    return how.fuse(text, keyword, vector)


def retrieve(notes: QuerySet[Note], text: str, limit: int, *, use_semantic: bool) -> tuple[list[Hit], str]:
    """Hits for `text` among `notes` (already scoped to the caller), best first, and the mode used."""
    pool = max(limit, POOL)
    if use_semantic:
        found = semantic_hits(notes, text, pool)
        if found is not None:
            vector_hits, mode = found
            # Keywords as keyword search finds them, substring as its last resort included: a code
            # fragment full-text cannot match still reaches the fused ranking.
            keyword_hits, _ = search.keyword_search(notes, text, pool)
            return fuse(text, keyword_hits, vector_hits)[:limit], mode
    return search.keyword_search(notes, text, limit)


def semantic_hits(
    notes: QuerySet[Note], text: str, limit: int, kind: Kind = "query"
) -> tuple[list[Hit], str] | None:
    query = semantic.vector_for(text, kind)
    if query is None:
        return None
    model_id, vector = query
    try:
        return semantic.nearest(notes, model_id, vector, limit)
    except DatabaseError:
        log.exception("semantic retrieval failed; answering with keyword search")
        return None


def ranked(hits: list[Hit], count: int, work_paths: Sequence[str] = ()) -> list[tuple[float, Note]]:
    """The best `count` hits by the one scoring function (relevance with importance, recency, type,
    status, links and reads), as search_notes orders its results; with `work_paths` (the files the
    caller works on) notes bound to them rank up and notes bound only elsewhere down."""
    now = timezone.now()
    inbound = inbound_link_counts([hit.note.pk for hit in hits])
    scored = (
        (
            round(
                ranking.score(ranking.note_signals(hit.note, hit.relevance, inbound.get(hit.note.pk, 0)), now)
                + ranking.path_adjustment(code_paths.affinity(hit.note.paths, work_paths)),
                4,
            ),
            hit.note,
        )
        for hit in hits
    )
    return sorted(scored, key=lambda pair: pair[0], reverse=True)[:count]
