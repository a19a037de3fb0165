"""The gate on the labelled corpus (issue 9, point 2): precision and recall per family, and no
refusal of a reference or a placeholder. Floors sit just under the measured figures (docs/safety.md);
tests/memory/screening/scoring.py prints the tables."""

from __future__ import annotations

import pytest

from labelled.screening.scoring import SPLITS, load, score

# Families with a fixed shape: recall must stay at 100 % (issue 9).
FIXED_SHAPE = (
    "private_key",
    "aws_access_key",
    "gcp_credentials",
    "github_token",
    "gitlab_token",
    "slack_token",
    "stripe_key",
    "ai_provider_key",
    "npm_token",
    "pypi_token",
    "jwt",
    "payment_card",
    "us_ssn",
)
# Measured 1.000 everywhere; one miss or one false finding in a family of this corpus size lands
# below these.
PRECISION_FLOOR = 0.95
RECALL_FLOOR = {"connection_string_password": 0.95, "secret_assignment": 0.95}
# Measured: no snippet without a secret refused (spec: under 0.5 %, which is none at this size).
MAX_FALSE_REFUSALS = 0


@pytest.fixture(scope="module", params=SPLITS)
def scored(request):
    return request.param, score(load(request.param))


def test_the_corpus_is_large_and_balanced():
    snippets = [s for split in SPLITS for s in load(split)]
    positives = [s for s in snippets if s.label]
    assert len(snippets) >= 300
    assert 0.4 <= len(positives) / len(snippets) <= 0.6
    assert {s.label for s in positives} >= set(FIXED_SHAPE) | set(RECALL_FLOOR)
    assert len({s.kind for s in snippets}) >= 10


def test_no_reference_or_placeholder_is_refused(scored):
    split, result = scored
    assert len(result.refused_negatives) <= MAX_FALSE_REFUSALS, f"{split}: {result.refused_negatives}"


@pytest.mark.parametrize("family", FIXED_SHAPE)
def test_fixed_shape_families_find_every_secret(scored, family):
    split, result = scored
    assert result.recall(family) == 1.0, f"{split}: {result.missed}"


@pytest.mark.parametrize("family", sorted(RECALL_FLOOR))
def test_free_form_families_recall(scored, family):
    split, result = scored
    assert result.recall(family) >= RECALL_FLOOR[family], f"{split}: {result.missed}"


def test_every_family_is_precise(scored):
    split, result = scored
    low = {
        f: round(result.precision(f), 3) for f in result.predicted if result.precision(f) < PRECISION_FLOOR
    }
    assert low == {}, split
