"""Disguises that hide a secret behind a normalisation the store applies after the gate has looked.

Each disguise sends pieces the gate passes as sent, which the store turns into a secret: tags are
lower-cased with hyphens for spaces, slugs are derived from names, titles are derived from the first
sentence (leading markers stripped, long sentences cut), patches join the current body with new
text, and a checkpoint's handoff body joins its items. A planting counts only when the value the
store would write is one the gate refuses (`stored` models what the store writes); those whose pieces
also pass the gate as sent are the ones only screening the stored form can stop.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from django.utils.text import slugify

from accounts.errors import InvalidArgument
from memory.validation import derive_title, tag_name
from tests.safety import harness
from tests.safety.write_paths import Context, Step

Pieces = list[str]
CUT = "<<cut>>"


@dataclass(frozen=True)
class Disguise:
    """A way through one write path: secret → candidate pieces, pieces → stored value, pieces → calls."""

    name: str
    hide: Callable[[str, str], list[Pieces]]  # (sample value, its core) → candidate pieces to send
    stored: Callable[[Pieces], str]
    steps: Callable[[Pieces, Context, int], list[Step]]


@dataclass(frozen=True)
class Scenario:
    label: str
    family: str
    secret: str  # the characters the database search looks for
    steps: list[Step]
    stored_only: bool  # every piece passes the gate as sent: only the stored form gives it away


# --- how a secret is cut or reshaped ---------------------------------------------------------------


def _tag(piece: str) -> str:
    return re.sub(r"\s+", "-", piece.strip().lower())


def _slug(piece: str) -> str:
    return slugify(piece)[:60].strip("-")


def spaced(value: str, core: str) -> list[Pieces]:
    return [[core.replace("-", " ")]] if "-" in core else []


def upper(value: str, core: str) -> list[Pieces]:
    return [[core.upper()]] if core.upper() != core else []


def upper_spaced(value: str, core: str) -> list[Pieces]:
    shaped = core.upper().replace("-", " ")
    return [[shaped]] if shaped not in (core, core.upper(), core.replace("-", " ")) else []


def slug_spaced(value: str, core: str) -> list[Pieces]:
    return [[core.replace("-", " - ")]] if "-" in core else []


def slug_punctuated(value: str, core: str) -> list[Pieces]:
    return [[core.replace("-", " . ")]] if "-" in core else []


def leading_marker(value: str, core: str) -> list[Pieces]:
    return [[f"-{core} was seen in the logs"]]


def cut_off(limit: int) -> Callable[[str, str], list[Pieces]]:
    """A first sentence cut right after the secret: digits that follow it hide it until the cut."""

    def hide(value: str, core: str) -> list[Pieces]:
        room = limit - len(core) - 3
        return [[f"Ref{'x' * room}{core}00000000 and the rest."]] if room >= 0 else []

    return hide


def middle(value: str, core: str) -> list[Pieces]:
    """The value cut in the middle of its secret."""
    start = value.find(core)
    if start < 0:
        return []
    at = start + len(core) // 2
    return [[value[:at], value[at:]]]


def at_separators(value: str, core: str) -> list[Pieces]:
    """The value cut at each separator, so that the store's joiner stands where the separator was."""
    cuts = []
    for at in range(1, len(value)):
        if value[at - 1].isalnum() and value[at].isalnum():
            continue
        first, second = value[:at].strip(), value[at:].strip()
        if first and second:
            cuts.append([first, second])
    return cuts


# --- the write paths -------------------------------------------------------------------------------


def _remember_tags(p: Pieces, c: Context, n: int) -> list[Step]:
    return [Step("remember", {"project": "payments", "content": f"Tagged note {n}", "tags": p}, secret=p[0])]


def _create_tags(p: Pieces, c: Context, n: int) -> list[Step]:
    arguments = {"project": "payments", "title": f"Tagged {n}", "body": "b", "tags": p}
    return [Step("save_note", arguments, secret=p[0])]


def _update_tags(p: Pieces, c: Context, n: int) -> list[Step]:
    return [Step("save_note", {"id": c.note_id, "tags": p}, secret=p[0])]


def _rename_tag(p: Pieces, c: Context, n: int) -> list[Step]:
    return [
        Step("save_note", {"id": c.note_id, "tags": ["legacy"]}, refused=False),
        Step("rename_tag", {"project": "payments", "old": "legacy", "new": p[0]}, secret=p[0]),
    ]


def _project_name(p: Pieces, c: Context, n: int) -> list[Step]:
    return [Step("create_project", {"name": p[0]}, secret=p[0])]


def _remember_content(p: Pieces, c: Context, n: int) -> list[Step]:
    return [Step("remember", {"project": "payments", "content": p[0]}, secret=p[0])]


def _checkpoint_summary(p: Pieces, c: Context, n: int) -> list[Step]:
    return [Step("checkpoint", {"project": "payments", "summary": p[0]}, secret=p[0])]


def _checkpoint_item(p: Pieces, c: Context, n: int) -> list[Step]:
    arguments = {"project": "payments", "summary": f"Wrap-up {n}", "decisions": p}
    return [Step("checkpoint", arguments, secret=p[-1])]


def _replace(p: Pieces, c: Context, n: int) -> list[Step]:
    return [
        Step("save_note", {"id": c.note_id, "body": f"Key: {p[0]}{CUT} end"}, refused=False),
        Step("patch_note", {"id": c.note_id, "op": "replace", "find": CUT, "text": p[1]}, secret=p[1]),
    ]


def _append(p: Pieces, c: Context, n: int) -> list[Step]:
    return [
        Step("save_note", {"id": c.note_id, "body": p[0]}, refused=False),
        Step("patch_note", {"id": c.note_id, "op": "append", "text": p[1]}, secret=p[1]),
    ]


def _prepend(p: Pieces, c: Context, n: int) -> list[Step]:
    return [
        Step("save_note", {"id": c.note_id, "body": p[1]}, refused=False),
        Step("patch_note", {"id": c.note_id, "op": "prepend", "text": p[0]}, secret=p[0]),
    ]


def _one(normalise: Callable[[str], str]) -> Callable[[Pieces], str]:
    return lambda p: normalise(p[0])


TAG_PATHS = {
    "remember tags": _remember_tags,
    "save_note create tags": _create_tags,
    "save_note update tags": _update_tags,
    "rename_tag new": _rename_tag,
}

DISGUISES: dict[str, list[Disguise]] = {
    "tags": [
        Disguise(f"{path}, {hide.__name__}", hide, _one(_tag), steps)
        for path, steps in TAG_PATHS.items()
        for hide in (spaced, upper, upper_spaced)
    ],
    "slugs": [
        Disguise(f"create_project name, {hide.__name__}", hide, _one(_slug), _project_name)
        for hide in (slug_spaced, slug_punctuated, upper)
    ],
    "titles": [
        Disguise("remember title, leading marker", leading_marker, _one(derive_title), _remember_content),
        Disguise("remember title, cut off", cut_off(80), _one(derive_title), _remember_content),
        Disguise(
            "checkpoint handoff title, leading marker",
            leading_marker,
            lambda p: "Handoff: " + derive_title(p[0], 70),
            _checkpoint_summary,
        ),
        Disguise(
            "checkpoint handoff title, cut off",
            cut_off(70),
            lambda p: "Handoff: " + derive_title(p[0], 70),
            _checkpoint_summary,
        ),
        Disguise(
            "checkpoint item title, leading marker", leading_marker, _one(derive_title), _checkpoint_item
        ),
    ],
    "patches": [
        Disguise("patch_note replace", middle, lambda p: f"Key: {p[0]}{p[1]} end", _replace),
        Disguise("patch_note append", at_separators, lambda p: f"{p[0]}\n\n{p[1]}", _append),
        Disguise("patch_note prepend", at_separators, lambda p: f"{p[0]}\n\n{p[1]}", _prepend),
    ],
    "handoff": [
        Disguise(
            "checkpoint handoff body, items",
            at_separators,
            lambda p: "Wrap-up\n\n## Decisions\n" + "\n".join(f"- {item}" for item in p),
            _checkpoint_item,
        ),
    ],
}


def _valid_tag(piece: str) -> bool:
    """A tag the store accepts: longer ones (a Discord webhook URL) or other characters (a Basic
    header's "=") are invalid_argument before anything is written, which tests nothing of the stored
    form."""
    try:
        tag_name(piece)
    except InvalidArgument:
        return False
    return True


def scenarios(disguise: Disguise, context: Context) -> list[Scenario]:
    """Every sample the disguise fits: the store would write a value the gate refuses, and the set-up
    calls pass the gate. Per sample, the first cut that only the stored form gives away is kept."""
    found = []
    count = 0
    for family, values in harness.samples().items():
        for value in values:
            secret = harness.core(family, value)
            fitting = []
            for pieces in disguise.hide(value, secret):
                if not harness.refused_by_gate({"value": disguise.stored(pieces)}):
                    continue
                if disguise in DISGUISES["tags"] and not _valid_tag(pieces[0]):
                    continue  # refused as an invalid tag before the stored form is screened
                count += 1
                steps = disguise.steps(pieces, context, count)
                set_up = [s.arguments for s in steps if not s.refused]
                if any(harness.refused_by_gate(a) for a in set_up) or harness.search_pattern(secret).search(
                    repr(set_up)
                ):
                    continue
                stored_only = not any(harness.refused_by_gate(s.arguments) for s in steps if s.refused)
                fitting.append(Scenario(f"{disguise.name} {family}", family, secret, steps, stored_only))
            fitting.sort(key=lambda s: not s.stored_only)
            found += fitting[:1]
    return found
