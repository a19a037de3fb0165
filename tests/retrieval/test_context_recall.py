"""Context recall on the labelled Harbor set: get_context(query=q, max_tokens=B) must carry the notes
that answer q. The floor sits a little under the measured value (bench/results/context-recall.md)."""

from __future__ import annotations

from tests.retrieval import harness
from tests.retrieval.dataset import validate

# Measured on the Harbor set: 0.967 at 500 tokens, 0.989 at 1,000 and 2,000 (before packing per token:
# 0.078, 0.089, 0.311). The target is 0.9 at 1,000.
FLOORS = {500: 0.93, 1_000: 0.95, 2_000: 0.95}


def test_context_recall_floors(cast, capsys):
    validate()
    principal = cast.principal(cast.member)
    ids = harness.load(principal, cast.payments)
    rows = harness.context_recall(principal, cast.payments, ids)
    with capsys.disabled():
        print("\n" + harness.context_table(rows))
    for row in rows:
        assert row.recall >= FLOORS[row.budget], row
        assert row.tokens <= row.budget
