"""remember's judgement on the labelled set (labelled/judgement/), through the real store on the
real database, with floors just under the figures measured when the set was last tuned
(docs/judgement.md)."""

from __future__ import annotations

import pytest

from labelled.judgement import harness
from labelled.judgement.dataset import FRESH, HELD_OUT, PAIRS, TUNING

# Floors on the frozen set (tuning and held-out parts together), a little under the measured figures:
# precision conflict 1.000, duplicate 1.000, updated 1.000, created 0.975; recall conflict 0.988,
# duplicate 0.971, updated 1.000, created 1.000. The fresh part measured an accuracy of 0.978.
PRECISION_FLOORS = {"conflict": 0.97, "duplicate": 0.97, "updated": 0.97, "created": 0.95}
RECALL_FLOORS = {"conflict": 0.96, "duplicate": 0.94, "updated": 0.97, "created": 0.97}
FRESH_ACCURACY_FLOOR = 0.95


@pytest.fixture
def principal(cast):
    plan = cast.plan
    plan.max_notes = 10 * (len(PAIRS) + len(FRESH))
    plan.save()
    return cast.principal(cast.member)


def test_the_set_is_large_and_covers_every_relation():
    assert len(PAIRS) >= 200
    relations = {pair.relation for pair in PAIRS}
    assert relations == {"duplicate", "restatement", "conflict", "unrelated", "complementary"}
    assert {pair.relation for pair in HELD_OUT} == relations == {pair.relation for pair in FRESH}
    assert len({(pair.old, pair.new) for pair in PAIRS + FRESH}) == len(PAIRS) + len(FRESH)


@pytest.mark.slow  # remembers every labelled pair through the store: minutes on two cores
def test_judgement_floors(principal, capsys):
    tuning = harness.run(principal, TUNING, "t")
    held_out = harness.run(principal, HELD_OUT, "h")
    fresh = harness.run(principal, FRESH, "f")
    frozen = tuning + held_out
    with capsys.disabled():
        print()
        for name, outcomes in (
            ("tuning", tuning),
            ("held out", held_out),
            ("frozen set", frozen),
            ("fresh", fresh),
        ):
            print(harness.table(name, outcomes) + "\n")
    scores = harness.scores(frozen)
    for status, floor in PRECISION_FLOORS.items():
        assert scores[status].precision >= floor, scores[status]
    for status, floor in RECALL_FLOORS.items():
        assert scores[status].recall >= floor, scores[status]
    assert harness.accuracy(fresh) >= FRESH_ACCURACY_FLOOR, harness.misses(fresh)
    # A restatement never merges notes about different subjects: that would silently rewrite a true fact.
    assert [o for o in frozen + fresh if o.wrong_merge] == []
