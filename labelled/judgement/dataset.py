"""The labelled judgement set: pairs of (stored note, new text) with the relation a careful reader
would give, and the status remember must answer for it.

PAIRS was frozen before the judgement was tuned. About 30 % of it, chosen by a hash of the text, is held
out: tuning looked only at the other part. FRESH was written after tuning, in other domains, and measured
once as it stood. All three parts are reported (README, "remember's judgement").
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from labelled.judgement.pairs_conflict import CONFLICT
from labelled.judgement.pairs_fresh import FRESH as FRESH_ROWS
from labelled.judgement.pairs_other import COMPLEMENTARY, UNRELATED
from labelled.judgement.pairs_reversal import NEAR_MISS, REVERSAL
from labelled.judgement.pairs_same import DUPLICATE, RESTATEMENT

# The relation in the set → the status remember answers for it.
EXPECTED_STATUS = {
    "duplicate": "duplicate",
    "restatement": "updated",
    "conflict": "conflict",
    "unrelated": "created",
    "complementary": "created",
}
HELD_OUT_SHARE = 30  # percent


@dataclass(frozen=True)
class Pair:
    relation: str
    type: str
    old: str
    new: str

    @property
    def expected(self) -> str:
        return EXPECTED_STATUS[self.relation]

    @property
    def held_out(self) -> bool:
        digest = hashlib.sha256(f"{self.old}\n{self.new}".encode()).digest()
        return int.from_bytes(digest[:4], "big") % 100 < HELD_OUT_SHARE


PAIRS: list[Pair] = [
    Pair(relation, type_, old, new)
    for relation, rows in (
        ("conflict", CONFLICT),
        ("duplicate", DUPLICATE),
        ("restatement", RESTATEMENT),
        ("unrelated", UNRELATED),
        ("complementary", COMPLEMENTARY),
    )
    for type_, old, new in rows
]
TUNING = [pair for pair in PAIRS if not pair.held_out]
HELD_OUT = [pair for pair in PAIRS if pair.held_out]
FRESH = [Pair(relation, type_, old, new) for relation, type_, old, new in FRESH_ROWS]

# Compound reversals and their near misses (pairs_reversal.py), split by the same hash: the rule that
# judges them was tuned on REVERSAL_TUNING only, and REVERSAL_HELD_OUT was scored once.
REVERSALS = [Pair("conflict", t, old, new) for t, old, new in REVERSAL] + [
    Pair("complementary", t, old, new) for t, old, new in NEAR_MISS
]
REVERSAL_TUNING = [pair for pair in REVERSALS if not pair.held_out]
REVERSAL_HELD_OUT = [pair for pair in REVERSALS if pair.held_out]
