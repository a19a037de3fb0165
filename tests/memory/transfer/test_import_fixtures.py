"""The labelled uploads (labelled/imports), scored through import_memory's dry run: each format is
recognised, the notes a person would write down are created with the right type, and the repeats
inside an upload are caught without merging distinct notes."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from labelled.imports import case, harness, rules, tools
from memory import store
from memory.transfer.formats import registry

FROZEN_SHA256 = {
    "case.py": "cc1748ac0349fc5bb625395966e129a7d7454b31e8b5d7fb891c2f688e482450",
    "rules.py": "460718abdcfe166fcc5e263951713d58c5f6e69a905651d39e28d856c5583c11",
    "tools.py": "1a5922ab2d5156489a82fa707561cf45dd683d867c0a78d62b3c5ebf098dc657",
}


def test_the_fixtures_are_frozen():
    for module in (case, rules, tools):
        path = Path(str(module.__file__))
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        assert digest == FROZEN_SHA256[path.name], f"labelled/imports/{path.name} changed after it was frozen"


@pytest.fixture
def scores(cast):
    found = []
    for labelled in harness.CASES:
        report = store.import_memory(cast.principal(cast.owner), "website", labelled.files, dry_run=True)
        texts = [c.content for c in registry.READERS[report["format"]].read(labelled.files).candidates]
        found.append(harness.score(labelled, report, texts))
    return found


def test_every_case_is_read(scores):
    for score in scores:
        print(score)
    assert [s.case for s in scores if not s.format_recognised] == []
    assert [s.case for s in scores if s.found < s.expected] == []
    assert [s.case for s in scores if s.wrong_merges] == []
    assert [s.case for s in scores if s.duplicates_caught != s.duplicates_expected] == []


# Measured once when the set was frozen: 41 of 46 types right (rules files 19/24, every other
# format all right). The floors sit at what was measured, so a reader that gets worse fails.
TYPES_RIGHT_FLOOR = 0.85
TYPES_RIGHT_PER_FORMAT_FLOOR = 0.75


def test_types_are_right_often_enough(scores):
    right = sum(s.types_right for s in scores)
    total = sum(s.expected for s in scores)
    assert right / total >= TYPES_RIGHT_FLOOR, (right, total)
    for fmt in {s.format for s in scores}:
        mine = [s for s in scores if s.format == fmt]
        share = sum(s.types_right for s in mine) / sum(s.expected for s in mine)
        assert share >= TYPES_RIGHT_PER_FORMAT_FLOOR, (fmt, share)
