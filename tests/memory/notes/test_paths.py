"""The glob matcher and the normalisation of note paths (memory.notes.paths)."""

from __future__ import annotations

import pytest

from accounts.errors import InvalidArgument
from memory import inputs
from memory.notes.paths import affinity, call_paths, matches, normalise, note_patterns


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("billing/**", "billing/invoice.py", True),
        ("billing/**", "billing/tax/rates/eu.py", True),
        ("billing/**", "billingx/invoice.py", False),
        ("billing/**", "src/billing/invoice.py", False),
        ("api/views/*.py", "api/views/notes.py", True),
        ("api/views/*.py", "api/views/sub/notes.py", False),  # `*` never crosses a folder
        ("api/views/*.py", "api/views/notes.pyc", False),
        ("*.py", "setup.py", True),
        ("*.py", "pkg/setup.py", False),
        ("**/*.py", "setup.py", True),  # `**` spans zero folders too
        ("**/*.py", "a/b/c/setup.py", True),
        ("**/migrations/*.py", "memory/migrations/0001_initial.py", True),
        ("a/**/b", "a/b", True),
        ("a/**/b", "a/x/y/b", True),
        ("a/**/b", "a/x/y/c", False),
        ("a/?.py", "a/x.py", True),
        ("a/?.py", "a/xy.py", False),
        ("a/?.py", "a//.py", False),
        ("docs/README.md", "docs/README.md", True),
        ("docs/README.md", "docs/readme.md", False),  # exact, case and all
        ("a.b/[x].py", "a.b/[x].py", True),  # regex characters stand for themselves
        ("a.b/[x].py", "aXb/x.py", False),
    ],
)
def test_globs_match_exactly(pattern, path, expected):
    assert matches(pattern, path) is expected


def test_many_double_stars_stay_fast_and_correct():
    pattern = "/".join(["**"] * 40 + ["z.py"])
    path = "/".join(["d"] * 60 + ["y.py"])
    assert matches(pattern, path) is False
    assert matches(pattern, "/".join(["d"] * 60 + ["z.py"])) is True


def test_normalisation_drops_root_markers_and_refuses_escapes():
    assert normalise("/billing/**", "paths[]") == "billing/**"
    assert normalise("./api//views/./x.py ", "paths[]") == "api/views/x.py"
    for bad in ("../etc/passwd", "a/../../b", "", "/", "a\\b", "a\x01b", 7):
        with pytest.raises(InvalidArgument):
            normalise(bad, "paths[]")
    with pytest.raises(InvalidArgument, match="limit"):
        normalise("a/" * inputs.PATH_PATTERN.max_length, "paths[]")


def test_lists_are_deduplicated_and_capped_once():
    assert note_patterns(["a/**", "./a/**", "b/*.py"]) == ["a/**", "b/*.py"]
    assert note_patterns(None) == []
    with pytest.raises(InvalidArgument, match=str(inputs.NOTE_PATHS.max_items)):
        note_patterns([f"d{i}/**" for i in range(inputs.NOTE_PATHS.max_items + 1)])
    with pytest.raises(InvalidArgument, match=str(inputs.PATHS_PER_CALL.max_items)):
        call_paths([f"f{i}.py" for i in range(inputs.PATHS_PER_CALL.max_items + 1)])
    with pytest.raises(InvalidArgument):
        note_patterns("billing/**")


def test_affinity_ranks_bound_here_up_bound_elsewhere_down_and_unbound_alone():
    assert affinity(["billing/**"], ["billing/a.py"]) == 1
    assert affinity(["billing/**"], ["web/a.py"]) == -1
    assert affinity([], ["web/a.py"]) == 0
    assert affinity(["billing/**"], []) == 0
