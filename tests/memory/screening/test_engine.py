"""The lean RE2 match loop finds exactly what google-re2's own finditer finds."""

from __future__ import annotations

import pytest
import re2

from labelled.screening.scoring import SPLITS, load
from memory.screening.patterns import FAMILIES
from tests.memory.screening.samples import FALSE_POSITIVES, TRUE_POSITIVES

TEXTS = [
    *(s.text for split in SPLITS for s in load(split)),
    *(v for values in TRUE_POSITIVES.values() for v in values),
    *FALSE_POSITIVES,
    "ünïcödé before postgres://a:ß@x@y and ghp_16C7e42F292c6912E7710c838347Ae178B4a — ﬁn 𝔘 4111 1111 1111 1111",
    "",
]


def _spans(match, groups):
    return [(match.start(), match.end()), *(match.group(i) for i in range(1, groups + 1))]


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_same_matches_as_google_re2(family):
    reference = re2.compile(family.pattern.pattern)
    for text in TEXTS:
        ours = [_spans(m, reference.groups) for m in family.pattern.finditer(text)]
        theirs = [_spans(m, reference.groups) for m in reference.finditer(text)]
        assert ours == theirs, text[:80]
        assert all(
            m.groupdict() == t.groupdict()
            for m, t in zip(family.pattern.finditer(text), reference.finditer(text), strict=True)
        )
