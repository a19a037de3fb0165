"""Recall@5 per search mode on the labelled Harbor set, with floors set from measured values so a
regression in any retriever, the fusion or the ranking fails the suite."""

from __future__ import annotations

import pytest

from tests.retrieval import harness
from tests.retrieval.dataset import validate

# Measured recall@5 on this set (README has the table); each floor sits a little under it.
FLOORS = {
    "fulltext (raw)": 0.78,  # measured 0.811
    "substring (raw)": 0.02,  # 0.022: whole-query substrings rarely occur; it is the last resort
    "vector (raw)": 0.93,  # 0.967
    "scan (raw)": 0.93,  # 0.967, the same vectors ranked in process
    "hybrid fusion (raw)": 0.93,  # 0.967
    "search_notes keyword": 0.82,  # 0.856
    "search_notes semantic": 0.93,  # 0.967, MRR 0.890
}
MRR_FLOORS = {"search_notes semantic": 0.85, "search_notes keyword": 0.74}


@pytest.fixture
def loaded(cast):
    validate()
    principal = cast.principal(cast.member)
    return principal, harness.load(principal, cast.payments)


def test_recall_floors_per_mode(cast, loaded, capsys):
    principal, ids = loaded
    scores = [
        harness.evaluate(mode, rank, ids) for mode, rank in harness.rankers(principal, cast.payments).items()
    ]
    with capsys.disabled():
        print("\n" + harness.table(scores))
    for score in scores:
        assert score.recall_at_5 >= FLOORS[score.mode], score
        assert score.mrr >= MRR_FLOORS.get(score.mode, 0.0), score
    by_mode = {score.mode: score for score in scores}
    # The fused semantic search must beat keyword search, the point of asking for semantic=true.
    assert by_mode["search_notes semantic"].recall_at_5 > by_mode["search_notes keyword"].recall_at_5


def test_superseded_decisions_never_win(cast, loaded):
    principal, ids = loaded
    rank = harness.rankers(principal, cast.payments)["search_notes semantic"]
    score = harness.evaluate("search_notes semantic", rank, ids)
    assert score.superseded_ok == 1.0
