"""Undo the disguises a secret can wear before the patterns look at it.

The characters removed are derived from the Unicode database at import time, not listed by hand: a
hand list misses whole blocks (it missed the Arabic number signs, the interlinear annotation
characters, the musical beam controls and the supplementary variation selectors), and Python's next
Unicode update adds characters a hand list would never learn about.
"""

from __future__ import annotations

import functools
import unicodedata

# Format characters (category Cf) and variation selectors live in planes 0, 1 and 14 only; planes
# 2-13 and 15-16 hold ideographs and private use. Scanning these three planes keeps import fast
# (tests/memory/screening/test_normalize.py checks the result against a scan of every code point).
SCANNED_PLANES = (range(0x20000), range(0xE0000, 0xF0000))

# Default-ignorable characters that are not category Cf, found by name so new ones of the same kind
# are picked up too: variation selectors (Mn), the Hangul fillers (Lo), the combining grapheme
# joiner and the Khmer inherent vowels (Mn). All render as nothing and can sit inside a secret.
_IGNORABLE_NAMES = (
    "VARIATION SELECTOR",
    "HANGUL CHOSEONG FILLER",
    "HANGUL JUNGSEONG FILLER",
    "HANGUL FILLER",
)
_IGNORABLE_EXACT = ("COMBINING GRAPHEME JOINER", "KHMER VOWEL INHERENT AQ", "KHMER VOWEL INHERENT AA")


def _is_invisible(char: str) -> bool:
    if unicodedata.category(char) == "Cf":
        return True
    name = unicodedata.name(char, "")
    return name in _IGNORABLE_EXACT or any(part in name for part in _IGNORABLE_NAMES)


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
            if _is_invisible(char):
                invisible[code] = None
            elif _is_dash(char):
                fold[code] = "-"
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
