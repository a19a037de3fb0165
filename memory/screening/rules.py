"""Checks on a team's own screening patterns before they are stored."""

from __future__ import annotations

import re

from accounts.errors import InvalidArgument

# Nested quantifiers such as (a+)+ or (\w*)* can take exponential time on a crafted input; Python's
# re has no timeout, so such patterns are refused outright.
_NESTED_QUANTIFIER = re.compile(r"\((?:[^()\\]|\\.)*[+*}]\)\s*[+*{]")


def check_pattern(value: str) -> None:
    try:
        compiled = re.compile(value, re.IGNORECASE)
    except re.error as exc:
        raise InvalidArgument(f"`value` is not a valid regular expression: {exc}.") from None
    if _NESTED_QUANTIFIER.search(value):
        raise InvalidArgument("`value` nests quantifiers (like (a+)+), which can hang the gate: simplify it.")
    if compiled.search(""):
        raise InvalidArgument("`value` matches empty text, so it would refuse every write: make it specific.")
