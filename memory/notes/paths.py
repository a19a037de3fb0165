"""Notes bound to code: normalising glob patterns and repository paths, and matching them exactly.

A pattern is relative to the repository root. `**` as a whole segment spans zero or more folders,
`*` matches within one segment (never a '/'), `?` one character of a segment, and every other
character stands for itself. fnmatch is not used: its `*` crosses '/', so `api/*.py` would bind a
note to every Python file below api/. Matching is segment by segment with memoisation, so its cost
is bounded by pattern length × path length whatever the pattern (no backtracking blow-up).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from accounts.errors import InvalidArgument
from memory import limits

_SLASHES = re.compile(r"/{2,}")
_FORBIDDEN = re.compile(r"[\x00-\x1f\x7f\\]")


def normalise(raw: Any, field: str) -> str:
    """One pattern or path as stored and matched: trimmed, '/'-separated, relative, without '.' or
    '..' segments. A leading '/' or './' is dropped (both mean the repository root); '..' is refused
    (it would leave the repository)."""
    if not isinstance(raw, str):
        raise InvalidArgument(f"`{field}` must be a string such as 'billing/**'.")
    value = raw.strip()
    if _FORBIDDEN.search(value):
        raise InvalidArgument(
            f"`{field}` {value[:80]!r} holds a backslash or a control character: use '/' between folders."
        )
    value = _SLASHES.sub("/", value)
    segments = [s for s in value.split("/") if s not in ("", ".")]
    if ".." in segments:
        raise InvalidArgument(f"`{field}` {value[:80]!r} contains '..': give paths from the repository root.")
    cleaned = "/".join(segments)
    if not cleaned:
        raise InvalidArgument(f"`{field}` must not be empty: give a path such as 'billing/**'.")
    if len(cleaned) > limits.PATH_PATTERN.max_length:
        raise InvalidArgument(
            f"`{field}` is {len(cleaned)} characters; the limit is {limits.PATH_PATTERN.max_length}."
        )
    return cleaned


def normalise_list(values: Any, field: str, *, max_items: int) -> list[str]:
    """Normalised, de-duplicated entries in their given order; None is []."""
    if values is None:
        return []
    if not isinstance(values, list):
        raise InvalidArgument(f"`{field}` must be a list of strings such as ['billing/**'].")
    if len(values) > max_items:
        raise InvalidArgument(f"`{field}` holds {len(values)} entries; the limit is {max_items}.")
    return list(dict.fromkeys(normalise(value, f"{field}[]") for value in values))


def note_patterns(values: Any, field: str = "paths") -> list[str]:
    """The globs a note is bound to (capped per note)."""
    return normalise_list(values, field, max_items=limits.NOTE_PATHS.max_items)


def call_paths(values: Any, field: str = "paths") -> list[str]:
    """The repository paths a caller names (capped per call)."""
    return normalise_list(values, field, max_items=limits.PATHS_PER_CALL.max_items)


@lru_cache(maxsize=4096)
def _segment_regex(segment: str) -> re.Pattern[str]:
    parts = []
    for char in segment:
        if char == "*":
            parts.append("[^/]*")
        elif char == "?":
            parts.append("[^/]")
        else:
            parts.append(re.escape(char))
    return re.compile("".join(parts))


def matches(pattern: str, path: str) -> bool:
    """Whether the normalised repository path `path` matches the normalised glob `pattern`."""
    return _matches(tuple(pattern.split("/")), tuple(path.split("/")))


@lru_cache(maxsize=16384)
def _matches(pattern: tuple[str, ...], path: tuple[str, ...]) -> bool:
    # Positions (i, j): pattern segments from i match path segments from j. Iterative over the table,
    # so a pattern of many '**' stays polynomial.
    rows, cols = len(pattern), len(path)
    reach = [[False] * (cols + 1) for _ in range(rows + 1)]
    reach[rows][cols] = True
    for i in range(rows - 1, -1, -1):
        segment = pattern[i]
        for j in range(cols, -1, -1):
            if segment == "**":
                reach[i][j] = reach[i + 1][j] or (j < cols and reach[i][j + 1])
            else:
                reach[i][j] = (
                    j < cols
                    and _segment_regex(segment).fullmatch(path[j]) is not None
                    and reach[i + 1][j + 1]
                )
    return reach[0][0]


def binds(patterns: Sequence[str], paths: Iterable[str]) -> bool:
    """Whether any of a note's patterns matches any of the paths."""
    return any(matches(pattern, path) for path in paths for pattern in patterns)


def affinity(patterns: Sequence[str], paths: Sequence[str]) -> int:
    """How a note relates to the files being worked on: 1 bound to one of them, -1 bound only to
    other code, 0 unbound (or no files given)."""
    if not patterns or not paths:
        return 0
    return 1 if binds(patterns, paths) else -1
