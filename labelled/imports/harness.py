"""Scoring an upload: what a dry run of import_memory would create, against the labels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from labelled.imports import rules, tools
from labelled.imports.case import ImportCase

CASES: list[ImportCase] = [*rules.CASES, *tools.CASES]


@dataclass(frozen=True)
class Score:
    case: str
    format: str
    format_recognised: bool
    created: int
    expected: int
    found: int  # expected notes among those created
    types_right: int  # of those found, with the labelled type
    duplicates_caught: int
    duplicates_expected: int
    wrong_merges: int  # an expected note reported as a duplicate or merge of something else


def score(case: ImportCase, report: dict[str, Any], texts: list[str]) -> Score:
    """`texts`: the full text of each note the report lists, in its order (the report shows the
    first few hundred characters of each)."""
    entries = [{**entry, "content": text} for entry, text in zip(report["notes"], texts, strict=True)]
    created = [entry for entry in entries if entry["outcome"] == "created"]
    merged = [entry for entry in entries if entry["outcome"] in ("duplicate", "merged")]
    found = types_right = 0
    for note_type, fragment in case.expected:
        match = next((entry for entry in created if fragment in entry["content"]), None)
        if match is not None:
            found += 1
            types_right += match["type"] == note_type
    wrong = sum(
        1
        for _, fragment in case.expected
        if not any(fragment in entry["content"] for entry in created)
        and any(fragment in entry["content"] for entry in merged)
    )
    return Score(
        case=case.name,
        format=case.format,
        format_recognised=report["format"] == case.format,
        created=len(created),
        expected=len(case.expected),
        found=found,
        types_right=types_right,
        duplicates_caught=sum(entry["outcome"] == "duplicate" for entry in entries),
        duplicates_expected=case.duplicates,
        wrong_merges=wrong,
    )
