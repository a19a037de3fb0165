"""Compound reversals ("We no longer use Kubernetes; we deploy to Fly.io" after "We deploy with
Kubernetes") are conflicts, and their near misses are not (labelled/judgement/pairs_reversal.py)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from labelled.judgement import pairs_reversal

FROZEN_SHA256 = "7c90c278936e6720b12aca038b2e214f801e22108d9d7b4f37748ad8336724e0"


def test_the_reversal_set_is_frozen():
    digest = hashlib.sha256(Path(pairs_reversal.__file__).read_bytes()).hexdigest()
    assert digest == FROZEN_SHA256, "labelled/judgement/pairs_reversal.py changed after it was frozen"
    assert len(pairs_reversal.REVERSAL) + len(pairs_reversal.NEAR_MISS) >= 40
