"""The screening gate every write passes before anything is stored.

It walks every string, object key and number of a write's arguments, checks each raw and normalised
(NFKC, invisible characters removed, dashes folded) against the pattern families and the team's own
patterns, and refuses the whole write on the first match unless the matched text is on the team's
allow-list. A refusal names the field path and the family, never the text; it is audited without
the text. Any error inside the gate refuses the write (fail closed).

No call can make the gate work without bound: the total text of one call is measured before any
pattern runs and refused above SCREEN_CEILING, every pattern runs in linear time (patterns.py), and
each candidate match is judged on a bounded window around it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from accounts.errors import InvalidArgument
from memory.screening.engine import linear
from memory.screening.family import WINDOW, Family, Match, Pattern, Window
from memory.screening.normalize import normalized
from memory.screening.patterns import FAMILIES

_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]{0,40}$")

# Characters of text one call may hand the gate. Well above any legitimate write (a note body is at
# most 50,000 characters; a large project export is a few megabytes), low enough that the worst
# call is a bounded amount of work.
SCREEN_CEILING = 16 * 1024 * 1024


@dataclass(frozen=True)
class Finding:
    path: str
    family: str
    label: str


@dataclass(frozen=True)
class TeamRules:
    patterns: tuple[Family, ...] = ()
    allowed: frozenset[str] = frozenset()


@dataclass
class Meter:
    """Work the gate did, counted in characters: text handed to a pattern engine, and text handed to
    validators (the window around each candidate). Deterministic, unlike a clock."""

    scanned: int = 0
    candidates: int = 0
    judged: int = 0

    @property
    def work(self) -> int:
        return self.scanned + self.judged


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


@functools.lru_cache(maxsize=512)
def _linear_team_pattern(source: str, flags: int) -> Pattern | None:
    """A team's pattern recompiled by RE2, or None when it uses what RE2 lacks (look-around,
    back-references); such a pattern keeps Python's engine, whose cost rules.py bounds by refusing
    nested quantifiers."""
    try:
        return linear(("(?i)" if flags & re.IGNORECASE else "") + source)
    except Exception:
        return None


def _engine(family: Family) -> Pattern:
    pattern = family.pattern
    if isinstance(pattern, re.Pattern):
        return _linear_team_pattern(pattern.pattern, pattern.flags) or pattern
    return pattern


def _allowed(match: Match, rules: TeamRules) -> bool:
    if not rules.allowed:
        return False
    pieces = {str(match.group(0)), *(str(v) for v in match.groupdict().values() if v)}
    pieces |= {piece.strip() for piece in pieces}
    return any(piece in rules.allowed or normalized(piece) in rules.allowed for piece in pieces)


def _first_match(family: Family, text: str, rules: TeamRules, meter: Meter) -> bool:
    meter.scanned += len(text)
    for match in _engine(family).finditer(text):
        meter.candidates += 1
        if family.validate is not None:
            view = Window(match, WINDOW)
            meter.judged += len(view.string)
            if not family.validate(view):
                continue
        if not _allowed(match, rules):
            return True
    return False


def measure(arguments: dict[str, Any]) -> list[tuple[str, str]]:
    """Every text of `arguments`, refused with invalid_argument above SCREEN_CEILING characters
    before any pattern runs."""
    texts, total = [], 0
    for path, text in walk(arguments, ""):
        total += len(text) + len(path)
        if total > SCREEN_CEILING:
            raise InvalidArgument(
                f"The arguments hold more than {SCREEN_CEILING // (1024 * 1024)} MiB of text, more than one "
                "write may carry: split the request."
            )
        texts.append((path, text))
    return texts


def screen(
    arguments: dict[str, Any], rules: TeamRules = TeamRules(), meter: Meter | None = None
) -> Finding | None:
    """The first secret found in `arguments` (name → value), or None."""
    meter = meter if meter is not None else Meter()
    families = (*FAMILIES, *rules.patterns)
    for path, text in measure(arguments):
        variants = dict.fromkeys((text, normalized(text)))
        for family in families:
            if any(_first_match(family, variant, rules, meter) for variant in variants):
                return Finding(path=path.lstrip(".") or "arguments", family=family.name, label=family.label)
    return None
