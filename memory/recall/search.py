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
from memory.recall.similarity import words

FULLTEXT = "fulltext"
SUBSTRING = "substring"
_MAX_TERMS = 16
# How many of the newest notes matching some of a text's terms ts_rank reads (README, "Query plans").
# Common words can match most of a project; ranking all of them grew with the project (a 20,000-note
# project: ~12,000 rows read and ranked per remember). The newest matches plus the notes matching all
# the terms are ranked; older partial matches are left to the semantic candidates (HNSW, any age) and
# the title trigram lookup. A project with fewer matches than this is ranked exactly as before.
LOOSE_POOL = 400
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


def _term_query(term: str) -> SearchQuery:
    return SearchQuery(term, search_type="plain", config="english")


def any_term_query(text: str) -> SearchQuery | None:
    """OR of the text's terms: a note matching some of them is a candidate, ranked by how many."""
    terms = query_terms(text)
    if not terms:
        return None
    return reduce(lambda a, b: a | b, [_term_query(term) for term in terms])


def all_terms_query(text: str) -> SearchQuery | None:
    """AND of the text's terms: few rows, found through the GIN index whatever the age of the note."""
    terms = query_terms(text)
    if not terms:
        return None
    return reduce(lambda a, b: a & b, [_term_query(term) for term in terms])


def loosely_matching(notes: QuerySet[Note], text: str) -> tuple[QuerySet[Note], SearchQuery] | None:
    """The notes an any-term match of `text` ranks, bounded: the newest LOOSE_POOL of them plus the
    newest LOOSE_POOL matching all its terms (one query: the bound is a subquery)."""
    loose = any_term_query(text)
    close = all_terms_query(text)
    if loose is None or close is None:
        return None
    newest = [
        notes.filter(search_document=query)
        .order_by("-updated_at", "-pk")
        .values_list("pk", flat=True)[:LOOSE_POOL]
        for query in (close, loose)
    ]
    return notes.filter(pk__in=newest[0].union(newest[1])), loose


def ranked_loosely(notes: QuerySet[Note], text: str, limit: int) -> list[Hit]:
    """The best `limit` any-term matches of `text` among a bounded set of them (loosely_matching)."""
    found = loosely_matching(notes, text)
    if found is None:
        return []
    pool, loose = found
    return ranked(pool, loose, limit)


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
        seen = {hit.note.pk for hit in hits}
        extra = ranked_loosely(notes.exclude(pk__in=seen), text, limit - len(hits))
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


def nothing_matched(text: str, filtered: bool) -> str:
    """What an empty search says to the person or the model that asked: that nothing matched (not that
    search failed), and what is worth trying instead of re-asking the same words."""
    shown = text if len(text) <= 80 else text[:79] + "…"
    tries = [
        "different or fewer words (a name, an error code, a file path)",
        "get_context for the project's current state",
    ]
    if filtered:
        tries.insert(0, "fewer filters (types, statuses, tags)")
    return (
        f"Nothing in the notes matches “{shown}”: no note contains its words and none is close enough in "
        f"meaning. The answer is probably not recorded. Try {'; '.join(tries)}. If you find the answer "
        "elsewhere, record it with remember."
    )
