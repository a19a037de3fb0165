"""The normaliser undoes invisible characters and look-alike dashes (issue 9, point 3e)."""

from __future__ import annotations

import sys
import unicodedata

import pytest

from memory.screening import normalize
from memory.screening.gate import screen
from memory.screening.normalize import normalized

TOKEN = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"

# The characters the hand-written list of issue 5 kept, and the ranges around them.
REPORTED = [
    *range(0x0600, 0x0606),  # Arabic number signs
    *range(0xFFF9, 0xFFFC),  # interlinear annotation
    *range(0x1D173, 0x1D17B),  # musical beam and phrase controls
    *range(0xE0100, 0xE01F0),  # supplementary variation selectors
]
KNOWN = [
    0x00AD,
    0x034F,
    0x061C,
    0x115F,
    0x180E,
    0x200B,
    0x200D,
    0x2060,
    0x2066,
    0x3164,
    0xFE0F,
    0xFEFF,
    0xE0041,
]


def _hidden(value: str, char: str) -> str:
    return char.join(value[i : i + 3] for i in range(0, len(value), 3))


@pytest.mark.parametrize("code", REPORTED + KNOWN, ids=lambda c: f"U+{c:04X}")
def test_invisible_characters_inside_a_secret_are_removed(code):
    disguised = _hidden(TOKEN, chr(code))
    assert normalized(disguised) == TOKEN
    finding = screen({"content": f"token {disguised}"})
    assert finding is not None and finding.family == "github_token"


def test_the_table_is_every_format_character_and_variation_selector_in_unicode():
    # The table scans three planes at import; a full scan of every code point finds nothing more.
    everything = {
        code
        for code in range(sys.maxunicode + 1)
        if unicodedata.category(chr(code)) == "Cf" or "VARIATION SELECTOR" in unicodedata.name(chr(code), "")
    }
    assert everything <= set(normalize.tables()[0])
    assert len(everything) > 400


@pytest.mark.parametrize(
    "dash", ["\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2212", "\ufe63", "\uff0d"]
)
def test_dashes_fold_so_an_ssn_or_card_with_typographic_dashes_is_found(dash):
    ssn = screen({"content": f"SSN 219{dash}09{dash}9999"})
    assert ssn is not None and ssn.family == "us_ssn"
    card = screen({"content": f"card 4111{dash}1111{dash}1111{dash}1111"})
    assert card is not None and card.family == "payment_card"


def test_ascii_text_is_returned_as_is_and_other_text_folds():
    text = "plain ASCII stays \t as it is -- 123"
    assert normalized(text) is text
    assert normalized("ｇｈｐ＿ａｂｃ") == "ghp_abc"
    assert normalized("a\u200bb\u00adc") == "abc"
