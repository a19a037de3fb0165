"""Undo the disguises a secret can wear before the patterns look at it."""

from __future__ import annotations

import re
import unicodedata

# Zero-width and other invisible format characters, soft hyphens, variation selectors, tag characters.
INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\U000e0000-\U000e007f]"
)


def normalized(text: str) -> str:
    """NFKC (full-width and compatibility forms to ASCII), invisible characters removed."""
    return INVISIBLE.sub("", unicodedata.normalize("NFKC", text))
