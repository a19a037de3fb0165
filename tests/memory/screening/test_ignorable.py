"""The frozen Default_Ignorable_Code_Point table (memory/screening/ignorable.py, issue 20 point 4),
checked against Python's Unicode database wherever that database can speak."""

from __future__ import annotations

import itertools
import sys
import unicodedata

import pytest

from memory.screening import normalize
from memory.screening.gate import screen
from memory.screening.ignorable import DEFAULT_IGNORABLE, code_points, default_ignorable
from memory.screening.normalize import normalized

# Other_Default_Ignorable_Code_Point (PropList.txt): the assigned ones, and the unassigned ranges.
OTHER_ASSIGNED = {0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0}
OTHER_UNASSIGNED = [(0x2065, 0x2065), (0xFFF0, 0xFFF8), (0xE0000, 0xE0000), (0xE0002, 0xE001F)]
OTHER_UNASSIGNED += [(0xE0080, 0xE00FF), (0xE01F0, 0xE0FFF)]
# Format characters the property's definition leaves visible: the interlinear annotation characters,
# the Egyptian hieroglyph format controls and the prepended concatenation marks.
VISIBLE_FORMAT = {*range(0xFFF9, 0xFFFC), *range(0x13430, 0x13440), *range(0x0600, 0x0606)}
VISIBLE_FORMAT |= {0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0x110BD, 0x110CD}
TOKEN = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"


def test_the_ranges_are_sorted_and_disjoint():
    for (_, last), (first, _) in itertools.pairwise(DEFAULT_IGNORABLE):
        assert last < first
    assert all(first <= last for first, last in DEFAULT_IGNORABLE)


def test_every_code_point_in_the_table_is_what_the_definition_admits():
    unassigned = {code for first, last in OTHER_UNASSIGNED for code in range(first, last + 1)}
    for code in code_points():
        char = chr(code)
        category, name = unicodedata.category(char), unicodedata.name(char, "")
        if category == "Cn":
            assert code in unassigned, f"U+{code:04X}"
        else:
            assert category == "Cf" or "VARIATION SELECTOR" in name or code in OTHER_ASSIGNED, f"U+{code:04X}"
            assert not char.isspace()  # minus White_Space


def test_the_table_holds_every_format_character_and_variation_selector_the_definition_keeps():
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        kept = unicodedata.category(char) == "Cf" and code not in VISIBLE_FORMAT
        if kept or "VARIATION SELECTOR" in unicodedata.name(char, "") or code in OTHER_ASSIGNED:
            assert default_ignorable(code), f"U+{code:04X}"


def test_the_unassigned_ranges_are_in():
    assert all(default_ignorable(code) for code in [0x2065, *range(0xFFF0, 0xFFF9), *range(0xE0000, 0xE1000)])
    assert not default_ignorable(0xE1000) and not default_ignorable(0x2064 + 0x10000)
    assert not default_ignorable(ord("a"))


def test_the_gate_removes_every_default_ignorable_and_every_format_character():
    removed = set(normalize.tables()[0])
    assert set(code_points()) <= removed
    # Python's database may predate some of them (U+13439..1343F are Unicode 15).
    assert removed >= {code for code in VISIBLE_FORMAT if unicodedata.category(chr(code)) == "Cf"}


@pytest.mark.parametrize("code", [0x2065, 0xFFF0, 0xFFF8, 0xE0000, 0xE0080, 0xE01F0, 0xE0FFF, 0x180F, 0xFFA0])
def test_an_unassigned_or_filler_ignorable_inside_a_token_is_removed(code):
    disguised = chr(code).join(TOKEN[i : i + 4] for i in range(0, len(TOKEN), 4))
    assert normalized(disguised) == TOKEN
    finding = screen({"content": f"token {disguised}"})
    assert finding is not None and finding.family == "github_token"
