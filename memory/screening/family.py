"""What a pattern family is, and the validators every fixed-shape token family shares.

A family has a name (what a refusal and its audit row report), a label (how the refusal reads), a
linear-time pattern (engine.py) and an optional validator that removes look-alikes. Validators see a
Window: the match and at most WINDOW characters around it, and judge at most MAX_VALUE characters of
it, so the work per candidate is bounded (patterns.py explains the linear-time argument).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from memory.screening import benign

# How much of a match validators judge, and how far around it they may read.
MAX_VALUE = 512
WINDOW = 600


class Match(Protocol):
    @property
    def string(self) -> str: ...

    def group(self, group: int | str = 0, /) -> Any: ...

    def groupdict(self) -> dict[str, Any]: ...

    def start(self, group: int = 0, /) -> int: ...

    def end(self, group: int = 0, /) -> int: ...


class Pattern(Protocol):
    @property
    def pattern(self) -> str: ...

    def finditer(self, string: str, /) -> Iterator[Any]: ...


@dataclass(frozen=True)
class Family:
    name: str
    label: str
    pattern: Pattern
    validate: Callable[[Match], bool] | None = None

    def finds(self, text: str) -> Match | None:
        for match in self.pattern.finditer(text):
            if self.validate is None or self.validate(Window(match, WINDOW)):
                return match  # type: ignore[no-any-return]
        return None


class Window:
    """A match as a validator sees it: the same groups, but `string` is only the text within
    `margin` characters of the match, so no validator can read (and spend time on) more."""

    def __init__(self, match: Match, margin: int) -> None:
        self._match = match
        self._offset = max(0, match.start() - margin)
        self.string = match.string[self._offset : match.end() + margin]

    def group(self, group: int | str = 0, /) -> Any:
        return self._match.group(group)

    def groupdict(self) -> dict[str, Any]:
        return self._match.groupdict()

    def start(self, group: int = 0, /) -> int:
        return self._match.start(group) - self._offset

    def end(self, group: int = 0, /) -> int:
        return self._match.end(group) - self._offset


def secret(match: Match) -> str:
    # Validators judge at most MAX_VALUE characters of a match: enough for any real token, and a
    # bounded cost per candidate whatever length the unbounded tails of the patterns allow.
    return str(match.groupdict().get("secret") or match.group(0))[:MAX_VALUE]


def token(prefix_length: int) -> Callable[[Match], bool]:
    """A fixed-shape token is a secret unless its random part is masked or a documentation marker."""

    def validate(match: Match) -> bool:
        return not benign.placeholder_token(secret(match)[prefix_length:])

    return validate


def token_after(separator: str) -> Callable[[Match], bool]:
    """The same for tokens whose random part follows the last `separator` (sk_live_…, glpat-…)."""

    def validate(match: Match) -> bool:
        return not benign.placeholder_token(secret(match).rsplit(separator, 1)[-1])

    return validate


def not_followed_by(chars: str, then: Callable[[Match], bool]) -> Callable[[Match], bool]:
    # RE2 has no look-ahead: a token of fixed length must not run on into more of its alphabet.
    def validate(match: Match) -> bool:
        following = match.string[match.end() : match.end() + 1]
        return (not following or following not in chars) and then(match)

    return validate


# Before a token: start of text or any character that cannot continue it. "_" and "-" are allowed,
# so tokens glued to words (`aws_AKIA…_backup.csv`, `token_ghp_…`) are found.
START = r"(?:^|[^A-Za-z0-9])"
UPPER_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
ALNUM = UPPER_ALNUM + "abcdefghijklmnopqrstuvwxyz"
