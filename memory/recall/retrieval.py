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


def retrieve(
    notes: QuerySet[Note], text: str, limit: int, *, use_semantic: bool, with_floor: bool = True
) -> tuple[list[Hit], str]:
    """Hits for `text` among `notes` (already scoped to the caller), best first, and the mode used.
    `with_floor` drops semantic-only hits below the model's relevance floor (semantic.RELEVANCE_FLOORS)."""
    pool = max(limit, POOL)
    if use_semantic:
        found = _semantic(notes, text, pool, "query")
        if found is not None:
            vector_hits, mode, model_id = found
            # Keywords as keyword search finds them, substring as its last resort included: a code
            # fragment full-text cannot match still reaches the fused ranking.
            keyword_hits, _ = search.keyword_search(notes, text, pool)
            fused = fuse(text, keyword_hits, vector_hits)
            floor = semantic.relevance_floor(model_id) if with_floor else 0.0
            return above_floor(fused, keyword_hits, vector_hits, floor)[:limit], mode
    return search.keyword_search(notes, text, limit)


def above_floor(fused: list[Hit], keyword: list[Hit], vector: list[Hit], floor: float) -> list[Hit]:
    """The fused hits without those only the semantic leg found with a cosine below `floor`. Fusion
    runs on every candidate first, so the order of what is kept is the order without a floor."""
    if floor <= 0.0:
        return fused
    found_by_keyword = {hit.note.pk for hit in keyword}
    too_far = {hit.note.pk for hit in vector if hit.relevance < floor} - found_by_keyword
    return [hit for hit in fused if hit.note.pk not in too_far]


def semantic_hits(
    notes: QuerySet[Note], text: str, limit: int, kind: Kind = "query"
) -> tuple[list[Hit], str] | None:
    """The nearest notes to `text` with no floor (remember's candidates want the near misses too)."""
    found = _semantic(notes, text, limit, kind)
    return None if found is None else (found[0], found[1])


def _semantic(notes: QuerySet[Note], text: str, limit: int, kind: Kind) -> tuple[list[Hit], str, str] | None:
    """Nearest hits, the mode and the model that embedded the query; None without a working model."""
    query = semantic.vector_for(text, kind)
    if query is None:
        return None
    model_id, vector = query
    try:
        hits, mode = semantic.nearest(notes, model_id, vector, limit)
    except DatabaseError:
        log.exception("semantic retrieval failed; answering with keyword search")
        return None
    return hits, mode, model_id


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
