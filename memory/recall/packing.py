"""Packing get_context's entries into a token budget.

Costs are counted in characters of the compact JSON the client receives: a token is 4 characters
(memory.recall.tokens), so keeping the characters within 4 × budget keeps the estimate within the budget.
Every charge is an upper bound of its share of the final text (each entry and section pays for a comma
it may not need), so the total never exceeds the budget.

An entry has up to three forms, richest first: FULL (the detail level's excerpt), SHORT (a short
excerpt) and TITLE (id and title only). Two ways of packing:
- without a query, entries are taken in the fixed section order at the richest form that fits, and
  dropped only when even the title does not fit;
- with a query, the notes it is about (the `relevant` section) come before the unrelated ones: every
  entry of the sections packed before `relevant` gets its title first, leaving `relevant` at least a
  third of the room; then the relevant entries get their titles and excerpts; then the rest get theirs
  in the fixed order. An unrelated entry is thus a title before any relevant entry is dropped or cut.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from memory.notes.lifecycle import excerpt
from memory.recall.tokens import compact_json

SHORT_EXCERPT_CHARS = 80
RELEVANT = "relevant"
_LEADING_MARKUP = re.compile(r"^[#>*\-\s]+")
_WS = re.compile(r"\s+")
_AFTER_TITLE = " .,:;!?-–—…"


class Form(IntEnum):
    FULL = 0
    SHORT = 1
    TITLE = 2


def excerpt_beyond_title(title: str, body: str, limit: int) -> str:
    """The start of the body without the title repeated: a title derived from the text (remember,
    checkpoint's "Handoff: …") is its first sentence, and saying it twice spends tokens on nothing.
    Empty when the body adds nothing to the title."""
    text = _WS.sub(" ", body).strip()
    bare = _LEADING_MARKUP.sub("", text)
    stem = title.strip().rstrip("…").rstrip(" .")
    for prefix in dict.fromkeys((stem, stem.split(": ", 1)[-1])):
        end = len(prefix)
        # Only a whole-word match: a title "Web" must not eat the start of "Webhooks".
        if prefix and bare[:end].lower() == prefix.lower() and not bare[end : end + 1].isalnum():
            text = bare[end:].lstrip(_AFTER_TITLE)
            break
    return excerpt(text, limit) if text else ""


@dataclass
class Item:
    """One candidate entry in its forms, with the characters each costs (comma included)."""

    section: str
    note_id: str
    pk: int
    forms: tuple[dict[str, Any], dict[str, Any], dict[str, Any]]
    costs: tuple[int, int, int] = field(init=False)

    def __post_init__(self) -> None:
        full, short, title = (len(compact_json(form)) + 1 for form in self.forms)
        self.costs = (full, short, title)


def entry_forms(
    head: dict[str, Any], title: str, body: str, tail: dict[str, Any], excerpt_chars: int
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """FULL, SHORT and TITLE forms of an entry: `head` (id, type, status), the title, the excerpt
    where it adds to the title, then `tail` (reason, deep fields)."""

    def form(chars: int) -> dict[str, Any]:
        text = excerpt_beyond_title(title, body, chars) if chars else ""
        return {**head, "title": title, **({"excerpt": text} if text else {}), **tail}

    return form(excerpt_chars), form(min(excerpt_chars, SHORT_EXCERPT_CHARS)), form(0)


def section_overhead(section: str) -> int:
    """`"name":[]` and the comma after it."""
    return len(compact_json(section)) + 4


@dataclass
class Packer:
    """Chosen forms of the items placed so far, and the characters they cost."""

    spent: int = 0
    chosen: dict[int, Form] = field(default_factory=dict)
    open_sections: set[str] = field(default_factory=set)

    def place(self, index: int, item: Item, form: Form, limit: int) -> bool:
        if index in self.chosen:
            return True
        cost = item.costs[form]
        if item.section not in self.open_sections:
            cost += section_overhead(item.section)
        if self.spent + cost > limit:
            return False
        self.spent += cost
        self.chosen[index] = form
        self.open_sections.add(item.section)
        return True

    def place_richest(self, index: int, item: Item, limit: int) -> None:
        for form in Form:
            if self.place(index, item, form, limit):
                return

    def enrich(self, index: int, item: Item, limit: int) -> None:
        """Give a placed entry the richest form the room allows."""
        current = self.chosen.get(index)
        if current is None:
            return
        for form in Form:
            if form >= current:
                return
            extra = item.costs[form] - item.costs[current]
            if self.spent + extra <= limit:
                self.spent += extra
                self.chosen[index] = form
                return


def pack(items: list[Item], limit: int, *, spent: int, for_query: bool, order: tuple[str, ...]) -> Packer:
    """Choose a form for each item (in `order` of sections, best first within one) or drop it, within
    `limit` characters of which `spent` are already used. Conflicts are packed first by the caller."""
    packer = Packer(spent=spent)
    if not for_query:
        for index, item in enumerate(items):
            packer.place_richest(index, item, limit)
        return packer
    position = {section: n for n, section in enumerate(order)}
    before = [i for i, item in enumerate(items) if position[item.section] < position[RELEVANT]]
    relevant = [i for i, item in enumerate(items) if item.section == RELEVANT]
    rest = [i for i, item in enumerate(items) if item.section != RELEVANT]
    room = limit - spent
    need = sum(items[i].costs[Form.FULL] for i in relevant) + (section_overhead(RELEVANT) if relevant else 0)
    reserve = min(room // 3, need)
    for index in before:
        packer.place(index, items[index], Form.TITLE, limit - reserve)
    for index in relevant:
        packer.place(index, items[index], Form.TITLE, limit)
    for index in relevant:
        packer.enrich(index, items[index], limit)
    for index in rest:
        packer.place(index, items[index], Form.TITLE, limit)
    if all(packer.chosen.get(index) == Form.FULL for index in relevant):
        # Room left after every relevant entry is whole goes to the rest; while one is cut, an
        # unrelated excerpt that would fit in the crumbs stays a title.
        for index in rest:
            packer.enrich(index, items[index], limit)
    return packer
