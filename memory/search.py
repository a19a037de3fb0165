"""Keyword retrieval: PostgreSQL full-text (title > tags > body) with a substring last resort.

Used by search_notes, get_context's `relevant` section and remember's candidate lookup; every query
goes through the GIN / trigram indexes with a LIMIT, never a scan of the project in Python.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import reduce

from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db.models import F, Q, QuerySet, Value

from memory.models import Note
from memory.similarity import words

FULLTEXT = "fulltext"
SUBSTRING = "substring"
_MAX_TERMS = 16
_STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "do",
        "does",
        "for",
        "from",
        "has",
        "have",
        "how",
        "i",
        "in",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "that",
        "the",
        "this",
        "to",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "why",
        "will",
        "with",
        "you",
        "our",
        "us",
    ]
)


@dataclass(frozen=True)
class Hit:
    note: Note
    relevance: float  # 0..1 within this result set


def query_terms(text: str) -> list[str]:
    terms: list[str] = []
    for word in words(text):
        if word in _STOP or len(word) < 2 or word in terms:
            continue
        terms.append(word)
    terms.sort(key=len, reverse=True)
    return terms[:_MAX_TERMS]


def any_term_query(text: str) -> SearchQuery | None:
    """OR of the text's terms: a note matching some of them is a candidate, ranked by how many."""
    terms = query_terms(text)
    if not terms:
        return None
    queries = [SearchQuery(term, search_type="plain", config="english") for term in terms]
    return reduce(lambda a, b: a | b, queries)


def ranked(notes: QuerySet[Note], query: SearchQuery, limit: int) -> list[Hit]:
    rows = list(
        notes.filter(search_document=query)
        .annotate(rank=SearchRank(F("search_document"), query, normalization=Value(32)))
        .order_by("-rank", "-updated_at")[:limit]
    )
    if not rows:
        return []
    top = max(float(row.rank) for row in rows) or 1.0
    return [Hit(row, float(row.rank) / top) for row in rows]


def fulltext(notes: QuerySet[Note], text: str, limit: int) -> list[Hit]:
    """Notes matching all terms (websearch syntax) first, then notes matching any of them."""
    strict = SearchQuery(text, search_type="websearch", config="english")
    hits = ranked(notes, strict, limit)
    if len(hits) < limit:
        loose = any_term_query(text)
        if loose is not None:
            seen = {hit.note.pk for hit in hits}
            extra = ranked(notes.exclude(pk__in=seen), loose, limit - len(hits))
            # Loose matches rank below every strict match.
            hits += [Hit(h.note, h.relevance * 0.6) for h in extra]
    return hits


def substring(notes: QuerySet[Note], text: str, limit: int) -> list[Hit]:
    needle = text.strip()[:200]
    if not needle:
        return []
    rows = list(
        notes.filter(Q(title__icontains=needle) | Q(body__icontains=needle)).order_by("-updated_at")[:limit]
    )
    return [Hit(row, 0.5 if needle.lower() in row.title.lower() else 0.3) for row in rows]


def keyword_search(notes: QuerySet[Note], text: str, limit: int) -> tuple[list[Hit], str]:
    """Full-text, and substring only when full-text finds nothing (e.g. code fragments, partial words)."""
    hits = fulltext(notes, text, limit)
    if hits:
        return hits, FULLTEXT
    return substring(notes, text, limit), SUBSTRING


def snippet(body: str, text: str, width: int = 160) -> str:
    """A window of the body around the first query term found, or its start."""
    flat = re.sub(r"\s+", " ", body).strip()
    lowered = flat.lower()
    for term in query_terms(text):
        at = lowered.find(term)
        if at >= 0:
            start = max(0, at - width // 3)
            piece = flat[start : start + width]
            return ("…" if start else "") + piece + ("…" if start + width < len(flat) else "")
    return flat[:width] + ("…" if len(flat) > width else "")
