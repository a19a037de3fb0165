"""The screening gate every write passes before anything is stored.

It walks every string, object key and number of a write's arguments, checks each raw and normalised
(NFKC, invisible characters removed) against the pattern families and the team's own patterns, and
refuses the whole write on the first match unless the matched text is on the team's allow-list.
A refusal names the field path and the family, never the text; it is audited without the text.
Any error inside the gate refuses the write (fail closed).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from memory.screening.normalize import normalized
from memory.screening.patterns import FAMILIES, Family

_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]{0,40}$")


@dataclass(frozen=True)
class Finding:
    path: str
    family: str
    label: str


@dataclass(frozen=True)
class TeamRules:
    patterns: tuple[Family, ...] = ()
    allowed: frozenset[str] = frozenset()


def walk(value: Any, path: str) -> Iterator[tuple[str, str]]:
    """(path, text) for every string, number and object key inside `value`."""
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, int | float | Decimal):
        yield path, format(value, "f") if isinstance(value, float | Decimal) else str(value)
    elif isinstance(value, dict):
        for index, (key, item) in enumerate(value.items()):
            key_text = str(key)
            key_path = f"{path}.{key_text}" if _PLAIN_KEY.match(key_text) else f"{path}{{key #{index}}}"
            yield f"{path}{{key #{index}}}", key_text
            yield from walk(item, key_path)
    elif isinstance(value, list | tuple | set | frozenset):
        for index, item in enumerate(value):
            yield from walk(item, f"{path}[{index}]")
    else:
        yield path, str(value)


def _allowed(match: re.Match[str], rules: TeamRules) -> bool:
    if not rules.allowed:
        return False
    pieces = {match.group(0), *(v for v in match.groupdict().values() if v)}
    return any(piece in rules.allowed or normalized(piece) in rules.allowed for piece in pieces)


def _first_match(family: Family, text: str, rules: TeamRules) -> bool:
    return any(
        not _allowed(match, rules)
        for match in family.pattern.finditer(text)
        if family.validate is None or family.validate(match)
    )


def screen(arguments: dict[str, Any], rules: TeamRules = TeamRules()) -> Finding | None:
    """The first secret found in `arguments` (name → value), or None."""
    families = (*FAMILIES, *rules.patterns)
    for path, text in walk(arguments, ""):
        variants = {text, normalized(text)}
        for family in families:
            if any(_first_match(family, variant, rules) for variant in variants):
                return Finding(path=path.lstrip(".") or "arguments", family=family.name, label=family.label)
    return None
