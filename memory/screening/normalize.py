"""Undo the disguises a secret can wear before the patterns look at it.

Removed: every default-ignorable code point (ignorable.py: the Unicode property, frozen from its
definition, unassigned reserved code points included) and every format character (category Cf,
derived from unicodedata at first use, so a Unicode update's new ones are removed too; this also
removes the few format characters the property leaves visible, such as the Arabic number signs).
A hand list missed whole blocks (the Arabic number signs, the interlinear annotation characters,
the musical beam controls, the supplementary variation selectors); a category scan alone missed the
unassigned ignorables (U+2065, U+FFF0, U+E0080, U+E01F0), which NFKC leaves in place.
"""

from __future__ import annotations

import functools
import unicodedata

from memory.screening import ignorable

# Format characters (category Cf) live in planes 0, 1 and 14 only; planes 2-13 and 15-16 hold
# ideographs and private use. Scanning these three planes keeps the first use fast
# (tests/memory/screening/test_normalize.py checks the result against a scan of every code point).
SCANNED_PLANES = (range(0x20000), range(0xE0000, 0xF0000))


def _is_dash(char: str) -> bool:
    # En and em dashes, non-breaking and figure dashes, the minus sign: written in place of "-"
    # between the digits of an SSN or a card number, by people and by word processors.
    return char != "-" and (unicodedata.category(char) == "Pd" or char == "\u2212")


@functools.cache
def tables() -> tuple[dict[int, None], dict[int, str | None]]:
    """(characters to remove, characters to remove or fold), built on first use: the scan takes a
    fraction of a second that processes which never screen should not pay at start-up."""
    invisible: dict[int, None] = {}
    fold: dict[int, str | None] = {}
    for plane in SCANNED_PLANES:
        for code in plane:
            char = chr(code)
            if unicodedata.category(char) == "Cf":
                invisible[code] = None
            elif _is_dash(char):
                fold[code] = "-"
    invisible.update(dict.fromkeys(ignorable.code_points()))
    return invisible, {**fold, **invisible}


def normalized(text: str) -> str:
    """Invisible characters removed, NFKC (full-width and compatibility forms to ASCII), dashes folded.

    Invisible characters go before NFKC (they would keep characters apart that NFKC composes) and
    again after, with the dashes NFKC can produce (it maps the non-breaking hyphen to U+2010).
    """
    if text.isascii():
        return text
    invisible, fold = tables()
    return unicodedata.normalize("NFKC", text.translate(invisible)).translate(fold)
