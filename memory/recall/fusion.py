"""How keyword and vector candidates become one ranking.

Two families are compared in bench/fusion_study.py on every labelled set (tests/retrieval/sets):
weighted reciprocal-rank fusion, which only looks at ranks, and a convex combination of the two
retrievers' normalised scores. Either can lean towards keywords for a query that carries exact
tokens (quoted strings, identifiers, numbers, file paths, proper names): those are what full-text
matches and a small embedding model blurs. The shipped choice is `CHOSEN` below; the study picks it
by leave-one-set-out evaluation, never on one set.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from memory.models import Note
from memory.recall.search import Hit

# Tokens a person types exactly, so a full-text match on them means more than any paraphrase.
_QUOTED = re.compile(r"\"[^\"]{2,}\"|'[^']{2,}'|`[^`]{2,}`")
_PATH = re.compile(
    r"(?:[\w.-]+/)+[\w.-]+|\b[\w-]+\.(?:py|js|ts|tsx|go|rs|java|rb|sql|ya?ml|json|toml|md|sh|cfg|ini)\b"
)
_IDENTIFIER = re.compile(r"\b(?:[a-z]+[A-Z]\w*|\w+_\w+|\w+(?:\.\w+)+|[A-Z]{2,}\w*)\b")
_NUMBER = re.compile(r"\b\d[\d.,:%-]*\b")
_WORD = re.compile(r"[A-Za-z][\w'-]*")
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+)([A-Z][\w'-]*)")
_COMMON_CAPITALS = frozenset(
    {"I", "I'm", "I've", "I'd", "What", "How", "Why", "When", "Where", "Which", "Who"}
)


def exact_tokens(text: str) -> int:
    """How many tokens of the query a person would expect to be matched letter for letter."""
    found = len(_QUOTED.findall(text)) * 2
    rest = _QUOTED.sub(" ", text)
    found += len(_PATH.findall(rest))
    rest = _PATH.sub(" ", rest)
    found += len(_IDENTIFIER.findall(rest)) + len(_NUMBER.findall(rest))
    rest = _NUMBER.sub(" ", _IDENTIFIER.sub(" ", rest))
    starts = {m.group(1) for m in _SENTENCE_START.finditer(rest)}
    found += sum(
        1
        for word in _WORD.findall(rest)
        if word[0].isupper() and word not in starts and word not in _COMMON_CAPITALS
    )
    return found


def exactness(text: str) -> float:
    """0 for a query in plain words, 1 for one with two or more exact tokens."""
    return min(1.0, exact_tokens(text) / 2)


@dataclass(frozen=True)
class Fusion:
    name: str
    method: Literal["rrf", "convex"]
    semantic_share: float  # the vector retriever's share of the weight, 0..1
    k: int = 60  # RRF's rank offset (unused by the convex combination)
    exact_lean: float = 0.0  # share of the semantic weight moved to keywords for a fully exact query

    def share_for(self, text: str) -> float:
        return self.semantic_share * (1.0 - self.exact_lean * exactness(text))

    def fuse(self, text: str, keyword: list[Hit], vector: list[Hit]) -> list[Hit]:
        share = self.share_for(text)
        if self.method == "rrf":
            scores = _rrf(keyword, vector, share, self.k)
        else:
            scores = _convex(keyword, vector, share)
        notes: dict[int, Note] = {hit.note.pk: hit.note for hit in (*keyword, *vector)}
        if not scores:
            return []
        best = max(scores.values()) or 1.0
        ordered = sorted(scores, key=lambda pk: scores[pk], reverse=True)
        return [Hit(notes[pk], scores[pk] / best) for pk in ordered]


def _rrf(keyword: list[Hit], vector: list[Hit], share: float, k: int) -> dict[int, float]:
    scores: dict[int, float] = {}
    for weight, hits in ((1.0 - share, keyword), (share, vector)):
        for rank, hit in enumerate(hits, start=1):
            scores[hit.note.pk] = scores.get(hit.note.pk, 0.0) + weight / (k + rank)
    return scores


def _convex(keyword: list[Hit], vector: list[Hit], share: float) -> dict[int, float]:
    # Cosines of a small model sit in a narrow band: min-max over the candidates spreads them to 0..1,
    # as the keyword relevances already are (relative to the best match). A note one retriever did
    # not find scores 0 there.
    scores: dict[int, float] = {}
    if vector:
        values = [hit.relevance for hit in vector]
        low, high = min(values), max(values)
        spread = high - low
        for hit in vector:
            normalised = (hit.relevance - low) / spread if spread > 1e-9 else 1.0
            scores[hit.note.pk] = share * normalised
    for hit in keyword:
        scores[hit.note.pk] = scores.get(hit.note.pk, 0.0) + (1.0 - share) * hit.relevance
    return scores


# Candidates compared by bench/fusion_study.py.
CANDIDATES: tuple[Fusion, ...] = (
    *(Fusion(f"rrf s={s} k={k}", "rrf", s, k) for s in (0.5, 0.6, 0.75) for k in (5, 20, 60)),
    *(Fusion(f"convex s={s}", "convex", s) for s in (0.3, 0.4, 0.5, 0.6, 0.7)),
    *(Fusion(f"rrf s={s} k=20 lean={lean}", "rrf", s, 20, lean) for s in (0.6, 0.75) for lean in (0.3, 0.6)),
    *(
        Fusion(f"convex s={s} lean={lean}", "convex", s, 60, lean)
        for s in (0.5, 0.6, 0.7)
        for lean in (0.3, 0.6)
    ),
)

# The fusion that shipped before the study: 3:1 RRF with k=5, tuned on the Harbor set alone. On the
# transcripts it lost to keywords at rank 1 (0.416 vs 0.429).
HARBOR_TUNED = Fusion("rrf s=0.75 k=5", "rrf", 0.75, 5)
# Chosen by leave-one-set-out (bench/fusion_study.py): every fold, holding out any one of the three
# sets, picks this one on the other two; it is above keyword search on all three by recall@1, recall@5
# and MRR, and has the best worst-set margin over keywords of all the candidates (README table).
CHOSEN = Fusion("convex s=0.6 lean=0.3", "convex", 0.6, exact_lean=0.3)
