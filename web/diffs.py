"""Side-by-side line diffs of two texts, as rows a template renders into an accessible table.

The rows hold plain text: the template escapes it like any other value, so a diff of a note that
contains HTML shows the HTML as text.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass

CONTEXT_LINES = 3  # unchanged lines shown around each change; longer unchanged runs are elided


@dataclass(frozen=True)
class DiffRow:
    kind: str  # "equal", "removed", "added", "changed" or "gap" (elided unchanged lines)
    old_number: int | None = None
    old_text: str | None = None
    new_number: int | None = None
    new_text: str | None = None


@dataclass(frozen=True)
class Diff:
    rows: list[DiffRow]
    added: int
    removed: int

    @property
    def same(self) -> bool:
        return not self.added and not self.removed


def side_by_side(old: str, new: str, *, context: int = CONTEXT_LINES) -> Diff:
    old_lines, new_lines = old.splitlines(), new.splitlines()
    if old_lines == new_lines:
        return Diff(rows=[], added=0, removed=0)
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    rows: list[DiffRow] = []
    added = removed = 0
    groups = list(matcher.get_grouped_opcodes(context))
    for position, group in enumerate(groups):
        if position > 0 or group[0][1] > 0 or group[0][3] > 0:
            rows.append(DiffRow("gap"))
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                rows.extend(
                    DiffRow("equal", i + 1, old_lines[i], j + 1, new_lines[j])
                    for i, j in zip(range(i1, i2), range(j1, j2), strict=True)
                )
                continue
            removed += i2 - i1
            added += j2 - j1
            for offset in range(max(i2 - i1, j2 - j1)):
                i, j = i1 + offset, j1 + offset
                old_line = old_lines[i] if i < i2 else None
                new_line = new_lines[j] if j < j2 else None
                kind = (
                    "changed"
                    if old_line is not None and new_line is not None
                    else ("removed" if old_line is not None else "added")
                )
                rows.append(
                    DiffRow(
                        kind,
                        i + 1 if old_line is not None else None,
                        old_line,
                        j + 1 if new_line is not None else None,
                        new_line,
                    )
                )
    last = groups[-1][-1]
    if last[2] < len(old_lines) or last[4] < len(new_lines):
        rows.append(DiffRow("gap"))
    return Diff(rows=rows, added=added, removed=removed)


@dataclass(frozen=True)
class FieldChange:
    label: str
    old: str
    new: str


def field_changes(
    old: Mapping[str, object], new: Mapping[str, object], labels: dict[str, str]
) -> list[FieldChange]:
    """The short fields (type, status, tags, importance…) that differ, as text."""
    return [
        FieldChange(label, _as_text(old.get(key)), _as_text(new.get(key)))
        for key, label in labels.items()
        if old.get(key) != new.get(key)
    ]


def _as_text(value: object) -> str:
    if value is None:
        return "—"
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value) or "none"
    return str(value)
