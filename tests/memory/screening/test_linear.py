"""No request can make the gate work without bound (issue 9, point 3a).

What is asserted, without a clock: every built-in family runs on RE2, an engine that never
backtracks (one search is linear in the text); the Python work around each candidate is confined to
a bounded window, and the gate's meter counts both, so 1 MB of adversarial text per family stays
within a fixed budget of operations per character, and twice the text is twice the work. The old
patterns on Python's re took 27 s on `"a." * 50000` (tools/bench/bench_screening.py times the new ones).
"""

from __future__ import annotations

import re

import pytest

from accounts.errors import InvalidArgument
from labelled.screening.adversarial import ADVERSARIAL, REPORTED
from memory.screening import gate
from memory.screening.engine import Linear
from memory.screening.family import WINDOW, Family
from memory.screening.gate import Meter, TeamRules, screen
from memory.screening.patterns import FAMILIES

MB = 1 << 20
# Operations per character: each family reads each character once (15 families, raw and normalised
# text), and a validator may read the window around each candidate. Measured worst case: 166.
BUDGET = 256


def _fill(unit: str, length: int) -> str:
    return (unit * (length // len(unit) + 1))[:length]


def test_every_family_runs_on_re2():
    slow = [family.name for family in FAMILIES if not isinstance(family.pattern, Linear)]
    assert slow == []
    # A pattern that matches empty text would make a candidate of every position.
    assert [family.name for family in FAMILIES if list(family.pattern.finditer(""))] == []


def test_adversarial_text_covers_every_family():
    assert set(ADVERSARIAL) == {family.name for family in FAMILIES}


@pytest.mark.parametrize(("family", "unit"), ADVERSARIAL.items())
def test_a_megabyte_of_adversarial_text_stays_within_the_operation_budget(family, unit):
    meter = Meter()
    assert screen({"content": _fill(unit, MB)}, meter=meter) is None
    assert meter.candidates > 0
    assert meter.work <= BUDGET * MB, f"{meter.work / MB:.1f} operations per character"


@pytest.mark.parametrize("unit", [*ADVERSARIAL.values(), *REPORTED])
def test_twice_the_text_is_twice_the_work(unit):
    small, large = Meter(), Meter()
    screen({"content": _fill(unit, MB // 16)}, meter=small)
    screen({"content": _fill(unit, MB // 8)}, meter=large)
    assert 1.9 <= large.work / small.work <= 2.1
    # Each candidate's window: WINDOW characters either side of the match, and the match itself
    # (the matches of one family never overlap, so they add up to at most the text).
    assert large.judged <= large.candidates * 2 * WINDOW + len(FAMILIES) * MB // 8


def test_the_reported_inputs_are_screened_within_the_budget():
    for unit in REPORTED:
        meter = Meter()
        screen(
            {"id": "n_missing000000", "op": "replace", "find": _fill(unit, 100_000), "text": "x"}, meter=meter
        )
        assert meter.work <= BUDGET * 100_000


def test_more_text_than_the_ceiling_is_refused_before_any_pattern_runs(monkeypatch):
    monkeypatch.setattr(gate, "SCREEN_CEILING", 10_000)
    meter = Meter()
    with pytest.raises(InvalidArgument):
        screen({"document": {"notes": [{"body": "x" * 6_000}, {"body": "y" * 6_000}]}}, meter=meter)
    assert meter.work == 0
    assert screen({"content": "x" * 9_000}, meter=meter) is None


def test_team_patterns_run_on_re2_when_they_can():
    customer = Family("custom:ids", "a customer id", re.compile(r"\bCUST-\d{6}\b", re.IGNORECASE))
    assert isinstance(gate._engine(customer), Linear)
    assert screen({"content": "refund cust-123456"}, TeamRules(patterns=(customer,))) is not None
    # Look-behind is beyond RE2: such a pattern keeps Python's engine and still works.
    behind = Family("custom:ref", "a reference", re.compile(r"(?<=ref:)\d{4}"))
    assert gate._engine(behind) is behind.pattern
    assert screen({"content": "see ref:1234"}, TeamRules(patterns=(behind,))) is not None
