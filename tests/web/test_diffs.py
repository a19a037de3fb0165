"""Side-by-side diffs: changed, removed and added lines paired, long unchanged runs elided."""

from __future__ import annotations

from web.diffs import field_changes, side_by_side


def test_identical_texts_have_no_rows():
    diff = side_by_side("a\nb", "a\nb")
    assert diff.same and diff.rows == []
    assert side_by_side("", "").same


def test_changes_are_paired_and_counted():
    diff = side_by_side("keep\nold\ngone", "keep\nnew")
    kinds = [(r.kind, r.old_text, r.new_text) for r in diff.rows]
    assert kinds == [("equal", "keep", "keep"), ("changed", "old", "new"), ("removed", "gone", None)]
    assert (diff.added, diff.removed) == (1, 2)
    added = side_by_side("", "first line")
    assert [(r.kind, r.new_number, r.new_text) for r in added.rows] == [("added", 1, "first line")]


def test_long_unchanged_runs_are_elided_with_line_numbers_kept():
    old = "\n".join(f"line {i}" for i in range(1, 31))
    new = old.replace("line 15", "line fifteen")
    rows = side_by_side(old, new, context=2).rows
    assert [r.kind for r in rows] == ["gap", "equal", "equal", "changed", "equal", "equal", "gap"]
    changed = rows[3]
    assert (changed.old_number, changed.new_number, changed.new_text) == (15, 15, "line fifteen")


def test_field_changes_name_only_what_differs():
    changes = field_changes(
        {"type": "fact", "tags": [], "importance": 0.5},
        {"type": "decision", "tags": ["a", "b"], "importance": 0.5},
        {"type": "Type", "tags": "Tags", "importance": "Importance"},
    )
    assert [(c.label, c.old, c.new) for c in changes] == [
        ("Type", "fact", "decision"),
        ("Tags", "none", "a, b"),
    ]
