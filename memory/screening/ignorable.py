"""Default_Ignorable_Code_Point, frozen: the code points that render as nothing.

Unicode defines the property (DerivedCoreProperties.txt) as
    Other_Default_Ignorable_Code_Point + Cf + Variation_Selector
    - White_Space - FFF9..FFFB - 13430..1343F - Prepended_Concatenation_Mark
Python's unicodedata has none of these properties but the category, and it cannot know the
unassigned code points Unicode reserves as ignorable (U+2065, U+FFF0..FFF8, most of U+E0000..E0FFF):
software must already skip them, so a secret can carry them invisibly, and a future Unicode
version may assign them. The ranges below are the property's, each with where it comes from;
tests/memory/screening/test_ignorable.py checks every range against unicodedata's categories and
names. normalize.py removes these and every other format character (Cf) too.
"""

from __future__ import annotations

import bisect

# (first, last) code points, sorted and disjoint.
DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),  # SOFT HYPHEN: Cf
    (0x034F, 0x034F),  # COMBINING GRAPHEME JOINER: Other_Default_Ignorable (Mn)
    (0x061C, 0x061C),  # ARABIC LETTER MARK: Cf
    (0x115F, 0x1160),  # HANGUL CHOSEONG and JUNGSEONG FILLER: Other_Default_Ignorable (Lo)
    (0x17B4, 0x17B5),  # KHMER VOWEL INHERENT AQ and AA: Other_Default_Ignorable (Mn)
    (0x180B, 0x180D),  # MONGOLIAN FREE VARIATION SELECTOR ONE..THREE: Variation_Selector (Mn)
    (0x180E, 0x180E),  # MONGOLIAN VOWEL SEPARATOR: Cf
    (0x180F, 0x180F),  # MONGOLIAN FREE VARIATION SELECTOR FOUR: Variation_Selector (Mn)
    (0x200B, 0x200F),  # ZERO WIDTH SPACE..RIGHT-TO-LEFT MARK: Cf
    (0x202A, 0x202E),  # the bidirectional embeddings and overrides: Cf
    (0x2060, 0x2064),  # WORD JOINER..INVISIBLE PLUS: Cf
    (0x2065, 0x2065),  # unassigned: Other_Default_Ignorable
    (0x2066, 0x206F),  # the bidirectional isolates and the deprecated format characters: Cf
    (0x3164, 0x3164),  # HANGUL FILLER: Other_Default_Ignorable (Lo)
    (0xFE00, 0xFE0F),  # VARIATION SELECTOR-1..16: Variation_Selector (Mn)
    (0xFEFF, 0xFEFF),  # ZERO WIDTH NO-BREAK SPACE: Cf
    (0xFFA0, 0xFFA0),  # HALFWIDTH HANGUL FILLER: Other_Default_Ignorable (Lo)
    (0xFFF0, 0xFFF8),  # unassigned: Other_Default_Ignorable
    (0x1BCA0, 0x1BCA3),  # the shorthand format controls: Cf
    (0x1D173, 0x1D17A),  # the musical beam and phrase controls: Cf
    # Tags (Cf, E0001 and E0020..E007F), VARIATION SELECTOR-17..256 (Variation_Selector, Mn,
    # E0100..E01EF) and the rest of the block, unassigned: Other_Default_Ignorable.
    (0xE0000, 0xE0FFF),
)

_FIRSTS = tuple(first for first, _ in DEFAULT_IGNORABLE)


def default_ignorable(code: int) -> bool:
    index = bisect.bisect_right(_FIRSTS, code) - 1
    return index >= 0 and code <= DEFAULT_IGNORABLE[index][1]


def code_points() -> list[int]:
    return [code for first, last in DEFAULT_IGNORABLE for code in range(first, last + 1)]
