from __future__ import annotations

import pytest

from memory.screening.gate import TeamRules, screen
from memory.screening.patterns import FAMILY_NAMES
from tests.memory.screening.samples import FALSE_POSITIVES, TRUE_POSITIVES, disguises

CASES = [(family, value) for family, values in TRUE_POSITIVES.items() for value in values]


def test_every_family_has_true_positives():
    assert set(TRUE_POSITIVES) == set(FAMILY_NAMES)


@pytest.mark.parametrize(("family", "value"), CASES)
def test_true_positive(family, value):
    finding = screen({"content": f"Note: {value} (see runbook)"})
    assert finding is not None and finding.family == family


@pytest.mark.parametrize(("family", "value"), CASES)
@pytest.mark.parametrize("disguise", ["fullwidth", "zero_width", "soft_hyphen"])
def test_disguised_true_positive(family, value, disguise):
    finding = screen({"content": disguises(value)[disguise]})
    assert finding is not None and finding.family == family


@pytest.mark.parametrize("value", FALSE_POSITIVES)
def test_false_positive(value):
    assert screen({"content": value}) is None


def test_paths_name_keys_lists_and_nesting_never_the_text():
    secret = TRUE_POSITIVES["aws_access_key"][0]
    assert screen({"tags": ["ok", secret]}).path == "tags[1]"  # type: ignore[union-attr]
    finding = screen({"document": {"notes": [{"title": "fine"}, {"body": f"x {secret}"}]}})
    assert finding is not None and finding.path == "document.notes[1].body"
    in_key = screen({"document": {secret: "value"}})
    assert in_key is not None and in_key.path == "document{key #0}" and secret not in in_key.path


def test_numbers_are_screened():
    assert screen({"expected_version": 4242424242424242}).family == "payment_card"  # type: ignore[union-attr]


def test_allow_listed_values_pass_and_others_do_not():
    allowed = TRUE_POSITIVES["aws_access_key"][0]
    rules = TeamRules(allowed=frozenset({allowed}))
    assert screen({"content": f"docs example {allowed}"}, rules) is None
    assert screen({"content": "ASIAY34FZKBOKMUTVV7A"}, rules) is not None
