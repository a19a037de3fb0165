"""Words and stems: the word-level layer under search terms and remember's judgement.

`words` splits text the way full-text search and the judgement both see it. `stem` folds inflections
with a few suffix rules and a small table of irregular forms, so "deploys", "deployed" and "deploying"
meet, as do "written" and "writes"; it is deliberately light (no dictionary): a wrong fold costs a
missed match, never a merge, because the judgement asks for whole clauses to agree.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

_WORD = re.compile(r"[a-z0-9][a-z0-9_+#.\-]*[a-z0-9+#]|[a-z0-9]")
# Contractions carry negation: split them before tokenising so "doesn't" reads as "does not".
_CONTRACTIONS = (
    (re.compile(r"\bcan(?:'t|not)\b"), "can not"),
    (re.compile(r"\bwon't\b"), "will not"),
    (re.compile(r"\b(\w+)n't\b"), r"\1 not"),
)
_IRREGULAR = {
    **dict.fromkeys(("used", "uses", "using"), "use"),
    **dict.fromkeys(("written", "wrote", "writes", "writing"), "write"),
    **dict.fromkeys(("built", "builds", "building"), "build"),
    **dict.fromkeys(("kept", "keeps", "keeping"), "keep"),
    **dict.fromkeys(("sent", "sends", "sending"), "send"),
    **dict.fromkeys(("ran", "runs", "running"), "run"),
    **dict.fromkeys(("chose", "chosen", "chooses", "choosing"), "choose"),
    **dict.fromkeys(("went", "gone", "goes", "going"), "go"),
    **dict.fromkeys(("made", "makes", "making"), "make"),
    **dict.fromkeys(("held", "holds", "holding"), "hold"),
    **dict.fromkeys(("took", "taken", "takes", "taking"), "take"),
    **dict.fromkeys(("gave", "given", "gives", "giving"), "give"),
    **dict.fromkeys(("shown", "showed", "shows"), "show"),
    **dict.fromkeys(("did", "done", "does"), "do"),
    **dict.fromkeys(("has", "had", "having"), "have"),
    **dict.fromkeys(("lives", "lived", "living"), "live"),
    **dict.fromkeys(("found", "finds"), "find"),
    **dict.fromkeys(("paid", "pays"), "pay"),
    **dict.fromkeys(("left", "leaves"), "leave"),
    **dict.fromkeys(("lost", "loses"), "lose"),
    **dict.fromkeys(("bound", "binds"), "bind"),
}
_UNDOUBLE = re.compile(r"([b-df-hj-km-np-rtv-xz])\1$")  # "runn" → "run", keeping "ll" and "ss"
_VOWEL = re.compile(r"[aeiouy]")


def normalise(text: str) -> str:
    text = text.lower().replace("’", "'")
    for pattern, replacement in _CONTRACTIONS:
        text = pattern.sub(replacement, text)
    return text


def words(text: str) -> list[str]:
    return _WORD.findall(normalise(text))


def bigrams(tokens: list[str]) -> set[tuple[str, str]]:
    return set(itertools.pairwise(tokens))


def _strip_suffix(word: str) -> str:
    for suffix, replacement in (("ies", "y"), ("ied", "y"), ("ily", "y"), ("ically", "ic")):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            return word[: -len(suffix)] + replacement
    if word.endswith("ly") and len(word) >= 7:
        return word[:-2]
    for suffix in ("ing", "ed"):
        rest = word[: -len(suffix)]
        if word.endswith(suffix) and len(rest) >= 3 and _VOWEL.search(rest) and not rest.endswith("e"):
            return _UNDOUBLE.sub(r"\1", rest)
    if word.endswith("es") and word[:-2].endswith(("s", "x", "z", "ch", "sh")) and len(word) > 4:
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        return word[:-1]
    return word


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light stem of one lower-case word; codes, versions and numbers are kept whole."""
    word = _IRREGULAR.get(word, word)
    if not word.isalpha() or len(word) <= 3:
        return word
    word = _strip_suffix(word)
    # A final silent e goes so "store", "stores" and "stored" share "stor".
    return word[:-1] if word.endswith("e") and len(word) > 3 else word
