"""Validators of the personal-data families: payment card numbers and US Social Security numbers.

RE2 has no look-around, so the boundaries the patterns cannot express (not inside a longer number,
not a decimal) are checked here, on a bounded window around the match.
"""

from __future__ import annotations

import re
from typing import Any

_RUN_CHARS = "0123456789 \t-"
_RUN = 64  # a card with separators is at most 19 digits and 18 separators of up to 3 characters

# (first digits from, to, lengths): the issuer ranges of the networks whose cards people paste.
_NETWORKS: tuple[tuple[int, int, tuple[int, ...]], ...] = (
    (4, 4, (13, 16, 19)),  # Visa
    (51, 55, (16,)),  # Mastercard
    (2221, 2720, (16,)),  # Mastercard 2-series
    (34, 34, (15,)),  # American Express
    (37, 37, (15,)),
    (6011, 6011, (16, 17, 18, 19)),  # Discover
    (644, 649, (16, 17, 18, 19)),
    (65, 65, (16, 17, 18, 19)),
    (62, 62, (16, 17, 18, 19)),  # UnionPay
    (3528, 3589, (16, 17, 18, 19)),  # JCB
    (300, 305, (14, 15, 16, 17, 18, 19)),  # Diners Club
    (36, 36, (14, 15, 16, 17, 18, 19)),
    (38, 39, (16, 17, 18, 19)),
    (2200, 2204, (16, 17, 18, 19)),  # Mir
    (5018, 5018, (13, 14, 15, 16, 17, 18, 19)),  # Maestro
    (5020, 5020, (13, 14, 15, 16, 17, 18, 19)),
    (5038, 5038, (13, 14, 15, 16, 17, 18, 19)),
    (5893, 5893, (13, 14, 15, 16, 17, 18, 19)),
    (6304, 6304, (13, 14, 15, 16, 17, 18, 19)),
    (6759, 6763, (13, 14, 15, 16, 17, 18, 19)),
)
# How cards are printed: 4-4-4-4(-3), Amex 4-6-5, Diners 4-6-4.
_GROUPINGS = ((4, 6, 5), (4, 6, 4))


def luhn(digits: str) -> bool:
    total = 0
    for index, char in enumerate(reversed(digits)):
        digit = int(char)
        if index % 2 == 1:
            digit *= 2
            if digit > 9:
                digit -= 9
        total += digit
    return total % 10 == 0


def _network(digits: str) -> bool:
    for low, high, lengths in _NETWORKS:
        width = len(str(low))
        if low <= int(digits[:width]) <= high and len(digits) in lengths:
            return True
    return False


def _grouped_like_a_card(groups: list[str]) -> bool:
    lengths = tuple(len(g) for g in groups)
    if len(lengths) == 1:
        return True
    return lengths in _GROUPINGS or (all(n == 4 for n in lengths[:-1]) and 1 <= lengths[-1] <= 4)


def card_number(groups: list[str]) -> bool:
    digits = "".join(groups)
    return 13 <= len(digits) <= 19 and _grouped_like_a_card(groups) and _network(digits) and luhn(digits)


def card(match: Any) -> bool:
    text: str = match.string
    start, end = match.start(), match.end()
    # The whole run of digits and separators the match sits in, at most _RUN characters each way
    # (str.rstrip/lstrip: the run is found in C, not character by character).
    head = text[max(0, start - _RUN) : start]
    tail = text[end : end + _RUN]
    left = start - (len(head) - len(head.rstrip(_RUN_CHARS)))
    right = end + (len(tail) - len(tail.lstrip(_RUN_CHARS)))
    before, after = text[max(0, left - 2) : left], text[right : right + 2]
    groups = text[left:right].replace("\t", " ").replace("-", " ").split()
    # A run can hold a card and more (a table row: "1043<tab>4748<tab>3519<tab>0498<tab>0329<tab>129.00",
    # "order 1 4242 4242 4242 4242"): try the groups from the run's start and those up to its end.
    # Only the run's own edges must not continue a longer number, or be the fraction of a decimal
    # (0.4242…, 1,4242…). A comma or point after the run is a field or sentence end ("…8431,1200.00").
    open_left = not before[-1:].isdigit() and not (before[-1:] in {".", ","} and before[:1].isdigit())
    open_right = not after[:1].isdigit()
    count = len(groups)
    slices = {(0, j) for j in range(1, count)} | {(i, count) for i in range(1, count)}
    if open_left:
        slices.add((0, count))
    return any(
        card_number(groups[i:j])
        for i, j in slices
        if (i > 0 or open_left) and (j < count or open_right) and j - i <= 6
    )


def ssn(match: Any) -> bool:
    text: str = match.string
    start, end = match.start(), match.end()
    before, after = text[max(0, start - 2) : start], text[end : end + 2]
    # Not inside a longer dashed number (a version "1.2.3-45-6789", a date-like id "2024-123-45-6789").
    if before[-1:].isdigit() or (before[-1:] == "-" and before[:1].isdigit()):
        return False
    if after[:1].isdigit() or (after[:1] == "-" and after[1:2].isdigit()):
        return False
    area, group, serial = text[start : start + 3], text[start + 4 : start + 6], text[start + 7 : end]
    return area not in {"000", "666"} and area[0] != "9" and group != "00" and serial != "0000"


# Separators of the second card shape: one character between every group, the same throughout.
_SEPARATED_CHARS = "0123456789._/\r\n"
_GROUP_OR_SEPARATOR = re.compile(r"\d+|[^\d]+")


def _segments(groups: list[str], separators: list[str]) -> list[tuple[int, int]]:
    """(first, last + 1) group indexes of every maximal stretch joined by one repeated separator."""
    found, first = [], 0
    for index in range(1, len(separators) + 1):
        if index == len(separators) or separators[index] != separators[first]:
            if len(separators[first]) == 1:
                found.append((first, index + 1))
            first = index
    return found


def separated(match: Any) -> bool:
    """A card printed with dots, underscores, slashes or one group per line: 4111.1111.1111.1111.

    Every separator between its groups is the same single character, the groups are a card's, and
    the stretch is not part of a longer one joined the same way (a dotted version, a list of
    four-digit numbers one per line), nor glued to a word or a number."""
    text: str = match.string
    start, end = match.start(), match.end()
    head = text[max(0, start - _RUN) : start]
    tail = text[end : end + _RUN]
    left = start - (len(head) - len(head.rstrip(_SEPARATED_CHARS)))
    right = end + (len(tail) - len(tail.lstrip(_SEPARATED_CHARS)))
    # Glued to a word or an identifier ("v4111.1111…", "…1111abc"): part of a name, not a card.
    if (text[left - 1 : left].isalnum() and text[left : left + 1].isdigit()) or (
        text[right : right + 1].isalnum() and text[right - 1 : right].isdigit()
    ):
        return False
    pieces = _GROUP_OR_SEPARATOR.findall(text[left:right].replace("\r\n", "\n"))
    if pieces and not pieces[0][0].isdigit():
        pieces = pieces[1:]
    groups, separators = pieces[0::2], pieces[1::2][: max(0, len(pieces[0::2]) - 1)]
    for first, last in _segments(groups, separators):
        # A group shared with a neighbouring stretch ("2024/01/15.4111…") may belong to either.
        trims = {(first, last), (first + (first > 0), last), (first, last - (last < len(groups)))}
        if any(card_number(groups[i:j]) for i, j in trims if j - i >= 2):
            return True
    return False
