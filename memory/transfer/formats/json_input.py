"""Reading another tool's JSON export safely: bounded depth, clear reasons instead of exceptions."""

from __future__ import annotations

import json
import re
from typing import Any

MAX_DEPTH = 32  # a memory export nests a handful of levels; far deeper is not one
_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def _too_deep(text: str) -> bool:
    # Measured before parsing, without recursion: the parser (and every walk after it) recurses per level.
    depth = 0
    for bracket in _NOT_BRACKET.sub("", _STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        if depth > MAX_DEPTH:
            return True
    return False


def load(text: str) -> tuple[Any, str | None]:
    """The parsed document, or None and the reason it could not be read."""
    if _too_deep(text):
        return None, f"nests deeper than {MAX_DEPTH} levels, which no memory export does"
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        return None, f"is not valid JSON ({error.msg} at line {error.lineno})"
    except ValueError:  # a number too long to convert
        return None, "is not valid JSON (a number too long to read)"
    return document, None


def text_of(value: Any) -> str | None:
    """A non-empty string without NUL characters, else None."""
    if not isinstance(value, str) or not value.strip() or "\x00" in value:
        return None
    return value.strip()


def strings(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(part.strip() for part in value.split(",") if part.strip())
    if isinstance(value, list):
        return tuple(item.strip() for item in value if isinstance(item, str) and item.strip())
    return ()
