"""Word-order-aware comparison of two statements, for remember's duplicate / restatement / conflict checks.

Word sets alone cannot tell "opaque tokens instead of JWTs" from "JWTs instead of opaque tokens"; the
bigrams (adjacent word pairs) can. We compare both, symmetrically, plus how much of the *old* note's
bigrams the new text covers: a longer text that covers most of the old one restates it.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from enum import Enum

_WORD = re.compile(r"[a-z0-9][a-z0-9_+#.\-]*[a-z0-9+#]|[a-z0-9]")
NEGATIONS = frozenset(
    {"not", "no", "never", "without", "dont", "don't", "doesnt", "doesn't", "cannot", "cant"}
)

# Thresholds, tuned on the reversal / restatement pairs in tests/memory/test_similarity.py.
DUPLICATE_WORDS = 0.9
DUPLICATE_BIGRAMS = 0.9
RESTATEMENT_COVERAGE = 0.75
RESTATEMENT_WORD_COVERAGE = 0.8
CONFLICT_WORDS = 0.7
CONFLICT_BIGRAMS_BELOW = 0.6
NEGATION_WORDS = 0.6


class Relation(Enum):
    DUPLICATE = "duplicate"
    RESTATEMENT = "restatement"
    CONFLICT = "conflict"
    UNRELATED = "unrelated"


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("’", "'"))


def bigrams(tokens: list[str]) -> set[tuple[str, str]]:
    return set(itertools.pairwise(tokens))


def _jaccard(a: set[object], b: set[object]) -> float:
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def _coverage(of: set[object], by: set[object]) -> float:
    return len(of & by) / len(of) if of else 0.0


@dataclass(frozen=True)
class Comparison:
    word_similarity: float  # Jaccard of word sets (symmetric)
    bigram_similarity: float  # Jaccard of bigram sets (symmetric, order-aware)
    old_bigram_coverage: float  # share of the old note's bigrams present in the new text
    old_word_coverage: float  # share of the old note's words present in the new text
    new_is_longer: bool
    negation_differs: bool

    def relation(self) -> Relation:
        if self.word_similarity >= DUPLICATE_WORDS and self.bigram_similarity >= DUPLICATE_BIGRAMS:
            return Relation.DUPLICATE
        # The restatement check runs before the conflict check: a longer text that keeps the old
        # statement's word order is an update, not a contradiction.
        if (
            self.new_is_longer
            and self.old_bigram_coverage >= RESTATEMENT_COVERAGE
            and self.old_word_coverage >= RESTATEMENT_WORD_COVERAGE
            and not self.negation_differs
        ):
            return Relation.RESTATEMENT
        if self.word_similarity >= CONFLICT_WORDS and self.bigram_similarity < CONFLICT_BIGRAMS_BELOW:
            return Relation.CONFLICT
        # Nearly the same words in another order ("X is the source of truth and Y a cache" against
        # "Y is the source of truth and X a cache"): a swap of roles, not a rewording.
        if self.word_similarity >= DUPLICATE_WORDS:
            return Relation.CONFLICT
        if self.negation_differs and self.word_similarity >= NEGATION_WORDS:
            return Relation.CONFLICT
        return Relation.UNRELATED


def compare(new_text: str, old_text: str) -> Comparison:
    new_words, old_words = words(new_text), words(old_text)
    new_set, old_set = set(new_words), set(old_words)
    new_bigrams, old_bigrams = bigrams(new_words), bigrams(old_words)
    negation_differs = bool(new_set & NEGATIONS) != bool(old_set & NEGATIONS)
    return Comparison(
        word_similarity=_jaccard(set(new_set), set(old_set)),
        bigram_similarity=_jaccard(set(new_bigrams), set(old_bigrams)),
        old_bigram_coverage=_coverage(set(old_bigrams), set(new_bigrams)),
        old_word_coverage=_coverage(set(old_set), set(new_set)),
        new_is_longer=len(new_words) > len(old_words),
        negation_differs=negation_differs,
    )
