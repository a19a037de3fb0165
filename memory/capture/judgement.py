"""remember's judgement: how a new statement relates to one stored note, clause by clause.

Both texts are read as clauses (memory/clauses.py). A reversal in any pair of clauses about the same
thing is a conflict, wherever it sits in a longer note:

- negation: one clause denies what the other asserts, and the shorter one's words are all in the
  longer ("We use Redis for rate limiting" / "We do not use Redis for rate limiting");
- opposites: the clauses differ by a pair of opposite words (enabled / disabled, synchronous /
  asynchronous, required / optional) and agree on their subject and most of the rest;
- a changed number: the same words around different numbers ("timeout is 30 seconds" / "90 seconds");
- a ruled-out term asserted by the other ("…rather than stored server-side", "…, not X", "without X",
  "no longer uses X", "X was replaced by Y", "moved from X to Y", "prefer Y over X") on the same topic;
- an exclusive claim against a universal one ("only the platform team may…" / "any engineer may…");
- swapped roles (the same words with two of them exchanged);
- two answers for one slot: the same subject and verb, then different values after a preposition
  that takes one value ("isolated by a column" / "isolated by a schema per team");
- a compound reversal, across clauses: one retires what the note says and another names its
  replacement ("We no longer use Kubernetes; we deploy to Fly.io"; memory/capture/reversals.py).

A restatement (`updated`) must say everything the stored note says, add to it, and begin about the same
subject; anything less is stored as a new note, because merging notes about different subjects would
silently rewrite a true fact. A duplicate says nothing the note does not. The notes' embeddings are a
second signal: a paraphrase whose words mostly agree and whose meaning is nearly identical is a
duplicate; a cosine never makes a conflict or a merge on its own.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from memory.capture import lexicon
from memory.capture.clauses import Clause, clauses, names
from memory.capture.reversals import retired_and_replaced
from memory.recall.similarity import stem

# Chosen on the tuning part of tests/memory/judgement/ (README, "remember's judgement").
DUPLICATE_WORDS = 0.8  # Jaccard of the two texts' content words
PARAPHRASE_WORDS = 0.5  # …lower when the embeddings agree this much:
PARAPHRASE_COSINE = 0.85
SHARED_SHARE = 0.5  # opposites and quantifiers: share of the shorter clause's other words in common
MAX_SWAP_WORDS = 30


class Relation(Enum):
    DUPLICATE = "duplicate"
    RESTATEMENT = "restatement"
    CONFLICT = "conflict"
    UNRELATED = "unrelated"


@dataclass(frozen=True)
class Judgement:
    relation: Relation
    reason: str


def _compatible(a: Clause, b: Clause, *, numbers: bool = True) -> bool:
    """Whether two clauses can be about the same subject (one subject may narrow the other)."""
    x, y = (a.subject, b.subject) if numbers else (a.subject_terms, b.subject_terms)
    if not x or not y:
        return x == y
    return x <= y or y <= x


def _contained(a: frozenset[str], b: frozenset[str]) -> bool:
    small, large = sorted((a, b), key=len)
    return len(small) >= 2 and small <= large


def _negation(old: Clause, new: Clause) -> bool:
    return old.negated != new.negated and _contained(old.words, new.words)


@lru_cache(maxsize=65536)
def _opposite(a: str, b: str) -> bool:
    if frozenset((a, b)) in lexicon.ANTONYMS:
        return True
    for x, y in ((a, b), (b, a)):
        for prefix in lexicon.NEGATING_PREFIXES:
            if x.startswith(prefix) and len(y) >= 5 and stem(x[len(prefix) :]) == y:
                return True
    return False


def _opposites(old: Clause, new: Clause) -> bool:
    if old.negated != new.negated or not _compatible(old, new):
        return False
    only_old, only_new = set(old.tokens) - set(new.tokens), set(new.tokens) - set(old.tokens)
    for a, b in itertools.product(only_old, only_new):
        if _opposite(a, b):
            rest_old, rest_new = old.words - {a}, new.words - {b}
            shared = rest_old & rest_new
            if len(shared) >= 2 and len(shared) >= SHARED_SHARE * min(len(rest_old), len(rest_new)):
                return True
    return False


def _changed_number(old: Clause, new: Clause) -> bool:
    return (
        old.negated == new.negated
        and bool(old.numbers and new.numbers)
        and old.numbers != new.numbers
        and _compatible(old, new, numbers=False)
        and _contained(old.terms, new.terms)
    )


def _rules_out(ruling: Clause, asserting: Clause) -> bool:
    """`ruling` rules out something `asserting` says, about the same topic."""
    if not ruling.rejected or asserting.negated or not ruling.rejected <= asserting.words:
        return False
    if ruling.subject and asserting.subject and not _compatible(ruling, asserting):
        return False
    # The topic is a shared thing, not only a shared verb: "use Postgres instead of MySQL for analytics"
    # says nothing against "we use MySQL for billing".
    topic = {word for word in ruling.words | ruling.subject if word not in lexicon.VERBS}
    if ruling.rejected <= ruling.words:
        topic -= ruling.rejected  # "no longer X" keeps X among its words; X is not the topic
    if topic & (asserting.words | asserting.subject):
        return True
    return not topic and len(ruling.rejected) >= 2


def _ruled_out(old: Clause, new: Clause) -> bool:
    # "A rather than B" against "B rather than A": each rules out what the other chose.
    if old.rejected and new.rejected and old.rejected <= new.words and new.rejected <= old.words:
        return True
    return _rules_out(new, old) or _rules_out(old, new)


def _exclusive(old: Clause, new: Clause) -> bool:
    reversed_ = (old.exclusive and new.universal and not new.exclusive) or (
        new.exclusive and old.universal and not old.exclusive
    )
    if not reversed_ or old.negated != new.negated:
        return False
    shared = old.words & new.words
    return len(shared) >= 2 and len(shared) >= SHARED_SHARE * min(len(old.words), len(new.words))


def _swapped(old: Clause, new: Clause) -> bool:
    if old.words != new.words or len(old.words) < 3 or len(old.words) > MAX_SWAP_WORDS:
        return False
    if old.content == new.content or old.negated != new.negated:
        return False
    # Nouns trade places in a reversal; a verb moving is a change of voice ("Redis is used for caching").
    nouns = sorted(word for word in old.words if word not in lexicon.VERBS)
    for a, b in itertools.combinations(nouns, 2):
        swapped = tuple(b if word == a else a if word == b else word for word in old.content)
        if swapped == new.content:
            return True
    return False


def _object(clause: Clause) -> frozenset[str]:
    """The words right after the verb, before any preposition: its direct object."""
    found: list[str] = []
    for word in clause.predicate:
        if word in lexicon.STOPWORDS:
            break
        found.append(stem(word))
    return frozenset(found)


def _subject_and_object_swapped(old: Clause, new: Clause) -> bool:
    """ "The scheduler calls the billing worker" / "The billing worker calls the scheduler". A subject
    that moves behind a preposition is a change of voice instead ("CI runs the tests" / "the tests run
    in CI")."""
    if old.verb is None or old.verb != new.verb or old.verb == "be" or old.negated != new.negated:
        return False
    return bool(old.subject and new.subject and old.subject != new.subject) and (
        old.subject == _object(new) and new.subject == _object(old)
    )


def _slot(old: Clause, new: Clause) -> bool:
    """The same subject and verb, then two different values after a one-value preposition."""
    if old.verb is None or old.verb != new.verb or old.subject != new.subject:
        return False
    if old.negated != new.negated or new.additive:
        return False
    old_stems, new_stems = [stem(w) for w in old.predicate], [stem(w) for w in new.predicate]
    common = 0
    while common < min(len(old_stems), len(new_stems)) and old_stems[common] == new_stems[common]:
        common += 1
    introducer = old.predicate[common - 1] if common else ("is" if old.verb == "be" else "")
    if introducer not in lexicon.SLOT_PREPOSITIONS and introducer != "is":
        return False
    tail_old = {stem(w) for w in old.predicate[common:] if w not in lexicon.STOPWORDS}
    tail_new = {stem(w) for w in new.predicate[common:] if w not in lexicon.STOPWORDS}
    return bool(tail_old and tail_new) and not tail_old & tail_new


_RULES: tuple[tuple[str, Callable[[Clause, Clause], bool]], ...] = (
    ("negation", _negation),
    ("ruled out", _ruled_out),
    ("opposite words", _opposites),
    ("changed number", _changed_number),
    ("exclusive claim reversed", _exclusive),
    ("roles swapped", _swapped),
    ("subject and object swapped", _subject_and_object_swapped),
    ("another value for the same slot", _slot),
)


def _pairs(old: list[Clause], new: list[Clause]) -> Iterator[tuple[Clause, Clause]]:
    for a in old:
        for b in new:
            if a.words & b.words or a.rejected & b.words or b.rejected & a.words:
                yield a, b


def conflict_reason(old: list[Clause], new: list[Clause]) -> str | None:
    for a, b in _pairs(old, new):
        for reason, rule in _RULES:
            if rule(a, b):
                return reason
    # Across clauses: one retires what the note says, another names its replacement (reversals.py).
    if retired_and_replaced(old, new) or retired_and_replaced(new, old):
        return "retired and replaced"
    return None


def _claims(parsed: list[Clause]) -> frozenset[str]:
    return frozenset().union(*(clause.claims for clause in parsed))


def _said_by_one_clause(old: list[Clause], new: list[Clause]) -> bool:
    """Every new clause is said, with the same polarity, by a single clause of the old text (words
    gathered from different clauses can say something else: "clients only predict" is not "clients
    are authoritative")."""
    return all(any(n.claims <= o.claims and n.negated == o.negated for o in old) for n in new)


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


def _restates(old: list[Clause], new: list[Clause]) -> bool:
    """The new text says all the old one says, adds to it, and starts about the same subject."""
    old_claims, new_claims = _claims(old), _claims(new)
    if not old_claims <= new_claims or not new_claims - old_claims:
        return False
    first_old, first_new = old[0], new[0]
    return first_old.subject == first_new.subject and first_old.claims <= first_new.claims


def _folded(text: str) -> str:
    return " ".join(text.lower().split()).strip(" .!")


def judge(new_text: str, old_text: str, cosine: float | None = None, *, same_type: bool = True) -> Judgement:
    """How `new_text` relates to the stored note `old_text`; `cosine` is the similarity of their
    embeddings where both exist, `same_type` whether the new note would have the stored note's type."""
    if _folded(new_text) == _folded(old_text):
        return Judgement(Relation.DUPLICATE, "same text")
    old, new = clauses(old_text), clauses(new_text)
    if not old or not new:
        return Judgement(Relation.UNRELATED, "no content words")
    reason = conflict_reason(old, new)
    if reason is not None:
        return Judgement(Relation.CONFLICT, reason)
    old_words, new_words = _claims(old), _claims(new)
    similarity = _jaccard(old_words, new_words)
    if similarity < DUPLICATE_WORDS and _restates(old, new):
        return Judgement(Relation.RESTATEMENT, "says all the note says, and more")
    # A statement inside a longer note of another type (a handoff listing the session's decisions) is
    # still worth its own typed note: get_context files notes by type.
    if same_type and len(new_words) >= 2 and _said_by_one_clause(old, new):
        return Judgement(Relation.DUPLICATE, "the note already says this")
    if old_words <= new_words and similarity >= DUPLICATE_WORDS:
        return Judgement(Relation.DUPLICATE, "the same words")
    # Words exchanged both ways are a paraphrase or a changed value. Only a paraphrase in ordinary
    # words whose meaning the embeddings find nearly identical is a duplicate ("written in Go" /
    # "implemented in Go"), never one that changes a number or a name ("10 MB" / "50 MB").
    changed = old_words ^ new_words
    if (
        cosine is not None
        and cosine >= PARAPHRASE_COSINE
        and similarity >= PARAPHRASE_WORDS
        and _compatible(old[0], new[0])
        and not changed & (names(old_text) | names(new_text))
    ):
        return Judgement(Relation.DUPLICATE, "a paraphrase")
    return Judgement(Relation.UNRELATED, "different statements")
