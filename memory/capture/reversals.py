"""Compound reversals: one clause retires what the stored note says, another names what replaced it.

"We no longer use Kubernetes; we deploy to Fly.io" against "We deploy with Kubernetes": the retiring
clause names Kubernetes, which the note asserts, and the other clause fills the note's own slot (the
same verb, or the same subject) with something else. Either half alone is no conflict: "we no longer
use Kubernetes for the website" narrows the retirement to a scope the note never named, and "we also
use Fly.io" adds without retiring. Chosen on the tuning part of labelled/judgement/pairs_reversal.py.
"""

from __future__ import annotations

from memory.capture import lexicon
from memory.capture.clauses import Clause
from memory.recall.similarity import stem

# Words that retire what follows them (or, after a copula, the clause's subject): "stopped using X",
# "dropped X", "X was dropped", "X is retired", "moved off X", "X is gone".
RETIRING_VERBS = frozenset(stem(w) for w in ("stopped", "dropped", "abandoned", "cancelled", "canceled",
                                             "retired", "removed", "ditched", "sunset"))  # fmt: skip
RETIRING_PAIRS = frozenset(
    (stem(a), stem(b))
    for a, b in (("moved", "off"), ("switched", "from"), ("migrated", "from"), ("is", "gone"),
                 ("was", "gone"), ("are", "gone"), ("any", "more"))
)  # fmt: skip
NOT_ANY_MORE = frozenset({stem("anymore")})
# A preposition after the retired thing that narrows it to a scope: "no longer use MySQL for analytics".
SCOPE_PREPOSITIONS = frozenset({"for", "in", "on", "at", "during", "within"})
_SKIPPED = lexicon.STOPWORDS | lexicon.ARTICLES | {","}


def _marker(clause: Clause) -> int | None:
    """Where the clause's retiring words end, or None when it retires nothing."""
    tokens = clause.tokens
    for index, token in enumerate(tokens):
        if token in RETIRING_VERBS or token in NOT_ANY_MORE:
            return index + 1
        if index + 1 < len(tokens) and (token, tokens[index + 1]) in RETIRING_PAIRS:
            return index + 2
    if clause.negated and clause.rejected:  # "no longer X" (the parser reads it as "not X", X rejected)
        return tokens.index("not") + 1 if "not" in tokens else 0
    return None


def _retired(clause: Clause, start: int) -> tuple[frozenset[str], frozenset[str]]:
    """(what the clause retires, the scope it narrows that to): the words after the marker up to a
    function word, past any verb ("stopped using Heroku"); else, as in "Jenkins is gone" or "Auth0 is
    no longer used", the clause's subject."""
    tokens = clause.tokens
    index = start
    while index < len(tokens) and (tokens[index] in lexicon.VERBS or tokens[index] in _SKIPPED):
        index += 1
    head: list[str] = []
    while index < len(tokens) and tokens[index] not in _SKIPPED and tokens[index] not in lexicon.VERBS:
        head.append(tokens[index])
        index += 1
    scope: list[str] = []
    if index < len(tokens) and tokens[index] in SCOPE_PREPOSITIONS:
        index += 1
        while index < len(tokens) and tokens[index] in lexicon.ARTICLES:
            index += 1
        while index < len(tokens) and tokens[index] not in _SKIPPED:
            scope.append(tokens[index])
            index += 1
    if not head:
        return clause.subject, frozenset(scope)
    return frozenset(head), frozenset(scope)


def _said_by(words: frozenset[str], clause: Clause) -> bool:
    return bool(words) and words <= clause.words | clause.subject


def _replaces(candidate: Clause, stored: Clause, retired: frozenset[str]) -> bool:
    """`candidate` fills the stored clause's slot (its verb, or its subject) with something new."""
    if candidate.negated:
        return False
    same_slot = (candidate.verb is not None and candidate.verb == stored.verb and candidate.verb != "be") or (
        bool(candidate.subject) and candidate.subject <= stored.words | stored.subject
    )
    new_words = candidate.words - stored.words - stored.subject - retired - lexicon.VERBS - RETIRING_VERBS
    return same_slot and bool(new_words)


def retired_and_replaced(old: list[Clause], new: list[Clause]) -> bool:
    """A clause of `new` retires what a clause of `old` asserts, in the same scope, and a clause of
    `new` puts something else in its place."""
    for ruling in new:
        start = _marker(ruling)
        if start is None:
            continue
        retired, scope = _retired(ruling, start)
        for stored in old:
            if stored.negated or not _said_by(retired, stored):
                continue
            if scope and not scope <= stored.words:
                continue  # retired for a narrower scope than the note's
            if ruling.subject and ruling.subject != retired and not _said_by(ruling.subject, stored):
                continue  # another subject's use of it ("marketing email no longer goes through X")
            if any(_replaces(other, stored, retired) for other in new if other is not ruling):
                return True
            tail = (
                ruling.words
                - retired
                - scope
                - stored.words
                - stored.subject
                - lexicon.VERBS
                - RETIRING_VERBS
            )
            if tail and {"to", "with"} & set(ruling.tokens[start:]):
                return True  # "dropped MySQL and moved the orders database to PostgreSQL"
    return False
