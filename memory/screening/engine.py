"""RE2, the linear-time engine every built-in family runs on, behind a lean match loop.

google-re2's `finditer` is correct but spends several times more Python per match than RE2 spends
matching (it rebuilds group tables and offset maps on every access), and adversarial text is made
of many cheap matches. `Linear` calls the same RE2 object once per match and hands out `Found`
objects with their spans resolved once. tests/memory/screening/test_engine.py checks it finds
exactly what google-re2's own `finditer` finds.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import re2

_UNANCHORED = re2._Anchor.UNANCHORED


class Found:
    """One match: the text it was found in, and (start, end) character spans of every group."""

    __slots__ = ("_names", "_spans", "string")

    def __init__(self, string: str, spans: list[tuple[int, int]], names: dict[str, int]) -> None:
        self.string = string
        self._spans = spans
        self._names = names

    def group(self, group: int | str = 0, /) -> str | None:
        start, end = self._spans[self._names[group] if isinstance(group, str) else group]
        return None if start < 0 else self.string[start:end]

    def groupdict(self) -> dict[str, str | None]:
        return {name: self.group(index) for name, index in self._names.items()}

    def start(self, group: int = 0, /) -> int:
        return self._spans[group][0]

    def end(self, group: int = 0, /) -> int:
        return self._spans[group][1]


class Linear:
    """A compiled RE2 pattern. RE2 refuses look-around and back-references, the features that
    make backtracking engines exponential or quadratic."""

    def __init__(self, pattern: str) -> None:
        compiled = re2.compile(pattern)
        self.pattern = pattern
        self._regexp: Any = compiled._regexp
        self._names: dict[str, int] = dict(compiled.groupindex)

    def finditer(self, text: str, /) -> Iterator[Found]:
        data = text.encode("utf-8")
        ascii_only = len(data) == len(text)
        # Byte offsets grow monotonically through the loop, so converting them to character offsets
        # costs one pass over the text in all: remember the last converted pair.
        last_byte = last_char = 0

        def chars(offset: int) -> int:
            nonlocal last_byte, last_char
            if offset < 0 or ascii_only:
                return offset
            if offset < last_byte:
                return len(data[:offset].decode("utf-8"))
            last_char += len(data[last_byte:offset].decode("utf-8"))
            last_byte = offset
            return last_char

        position, end = 0, len(data)
        while position <= end:
            spans = self._regexp.Match(_UNANCHORED, data, position, end)
            if spans[0][0] < 0:
                return
            offsets = sorted({offset for span in spans for offset in span if offset >= 0})
            converted = {offset: chars(offset) for offset in offsets}
            converted[-1] = -1
            yield Found(text, [(converted[s], converted[e]) for s, e in spans], self._names)
            if spans[0][1] > position:
                position = spans[0][1]
            else:  # an empty match: step over one whole character
                position += 1
                while position < end and data[position] & 0xC0 == 0x80:
                    position += 1


def linear(pattern: str) -> Linear:
    return Linear(pattern)
