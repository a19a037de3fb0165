"""One retrieval path for search_notes, get_context's `relevant` section and remember's candidates.

Keyword search (full-text, substring as a last resort) always runs. With semantic retrieval asked
for and available, vector (or scan) candidates are fused with the full-text ones by weighted
reciprocal rank. Measured on tests/retrieval (see README): keyword search wins on names and codes,
the small model on paraphrase, and equal weights lose to keyword alone on entity queries; the
weights below are the ones tuned there. Any failure of the semantic path leaves keyword results.
"""

from __future__ import annotations

import logging

from django.db import DatabaseError
from django.db.models import QuerySet

from memory import search, semantic
from memory.embeddings import Kind
from memory.models import Note
from memory.search import Hit

log = logging.getLogger(__name__)

# Weighted reciprocal-rank fusion: score = Σ weight / (RRF_K + rank). Chosen by bench/tune_fusion.py on
# tests/retrieval: equal weights (1, 1, k=60) gave recall@5 0.922 / MRR 0.760, below the vector
# retriever alone (0.967 / 0.788); these give 0.967 / 0.810.
SEMANTIC_WEIGHT = 3.0
KEYWORD_WEIGHT = 1.0
RRF_K = 5
POOL = 30  # candidates taken from each retriever before fusion


def fuse(keyword: list[Hit], vector: list[Hit]) -> list[Hit]:
    scores: dict[int, float] = {}
    notes: dict[int, Note] = {}
    for weight, hits in ((KEYWORD_WEIGHT, keyword), (SEMANTIC_WEIGHT, vector)):
        for rank, hit in enumerate(hits, start=1):
            scores[hit.note.pk] = scores.get(hit.note.pk, 0.0) + weight / (RRF_K + rank)
            notes[hit.note.pk] = hit.note
    if not scores:
        return []
    best = max(scores.values())
    ordered = sorted(scores, key=lambda pk: scores[pk], reverse=True)
    return [Hit(notes[pk], scores[pk] / best) for pk in ordered]


def retrieve(notes: QuerySet[Note], text: str, limit: int, *, use_semantic: bool) -> tuple[list[Hit], str]:
    """Hits for `text` among `notes` (already scoped to the caller), best first, and the mode used."""
    pool = max(limit, POOL)
    if use_semantic:
        found = semantic_hits(notes, text, pool)
        if found is not None:
            vector_hits, mode = found
            keyword_hits = search.fulltext(notes, text, pool)
            return fuse(keyword_hits, vector_hits)[:limit], mode
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
