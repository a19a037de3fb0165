"""JSON from outside, parsed only when its nesting is bounded (settings.JSON_MAX_DEPTH).

Python's parser recurses once per level, and so does every walk over what it returns: a document
nested a thousand deep is a RecursionError in the parser or in whatever reads it next, a 500 instead
of an answer. The depth is measured first, without recursion, and a deeper document is refused with
TooDeep (a ValueError, as the parser's own errors are) before anything walks it.
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np
from django.conf import settings

# A JSON string with its escapes (possessive: no backtracking, linear in the input); the brackets
# inside strings are text, not nesting.
_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"', re.DOTALL)
# Each byte's step in depth (brackets ±1, anything else 0): the running sum is the depth at each
# byte, with no Python loop per bracket (a body of millions of empty arrays costs milliseconds).
_STEP = np.zeros(256, dtype=np.int8)
_STEP[[ord("["), ord("{")]] = 1
_STEP[[ord("]"), ord("}")]] = -1


class TooDeep(ValueError):
    def __init__(self, limit: int) -> None:
        super().__init__(f"JSON nested deeper than {limit} levels")
        self.limit = limit


def depth_within(text: str, limit: int) -> bool:
    """Whether no array or object in `text` lies more than `limit` levels deep (the top is level 1).
    Malformed text is measured as far as it goes; the parser says what is wrong with it."""
    outside_strings = _STRING.sub("", text).encode("utf-8", "surrogatepass")
    if not outside_strings:
        return True
    steps = _STEP[np.frombuffer(outside_strings, dtype=np.uint8)]
    return int(np.cumsum(steps.astype(np.int32)).max()) <= limit


def loads(data: str | bytes, *, max_depth: int | None = None) -> Any:
    """json.loads, refusing (TooDeep) a document nested deeper than `max_depth` (default
    settings.JSON_MAX_DEPTH). Bytes are read as UTF-8, a byte order mark allowed."""
    limit = int(settings.JSON_MAX_DEPTH) if max_depth is None else max_depth
    text = data.decode("utf-8-sig") if isinstance(data, bytes) else data
    if not depth_within(text, limit):
        raise TooDeep(limit)
    return json.loads(text)
