"""Rules files agents read at every session: CLAUDE.md, AGENTS.md, GEMINI.md, Copilot's instructions,
Cursor's and Claude Code's rules folders, Windsurf's rules.

Each heading's section is split into statements: a list item is one note, a paragraph is one note, an
ordered list of steps (or a paragraph followed by a code block) is one procedure titled by its
heading. Front matter that scopes a rule to files (Cursor's `globs`, Claude Code's `paths`, Copilot's
`applyTo`) binds every note of that file to those globs. `@path` imports are followed within the
upload, once each and at most IMPORT_DEPTH deep. A section Knownbase rendered itself (between its
marker comments) is skipped: it is already memory.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml

from memory import limits
from memory.models import NoteType
from memory.transfer.formats import wording
from memory.transfer.formats.candidate import Candidate, Files, Reading

IMPORT_DEPTH = 5
MIN_STATEMENT = 12  # shorter lines ("Notes:", "See below") say nothing on their own

# File name (lower-cased, relative to the upload's root) → the tag its notes carry.
_ROOT_FILES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?:^|/)claude(?:\.local)?\.md$"), "claude-md"),
    (re.compile(r"(?:^|/)agents?\.md$"), "agents-md"),
    (re.compile(r"(?:^|/)gemini\.md$"), "gemini-md"),
    (re.compile(r"(?:^|/)\.github/copilot-instructions\.md$"), "copilot-instructions"),
    (re.compile(r"(?:^|/)\.github/instructions/[^/]+\.instructions\.md$"), "copilot-instructions"),
    (re.compile(r"(?:^|/)\.cursor/rules/.+\.mdc?$"), "cursor-rules"),
    (re.compile(r"(?:^|/)\.cursorrules$"), "cursor-rules"),
    (re.compile(r"(?:^|/)\.claude/rules/.+\.md$"), "claude-rules"),
    (re.compile(r"(?:^|/)\.windsurf/rules/.+\.md$|(?:^|/)\.windsurfrules$"), "windsurf-rules"),
)
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ITEM = re.compile(r"^(\s*)(?:([-*+])|(\d{1,3})[.)])\s+(.*)$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_IMPORT = re.compile(r"(?<![\w/`])@((?:\.{1,2}/|~/)?[\w.\-/]+\.[A-Za-z0-9]+)")
_NEGATIVE_HEADING = re.compile(r"\b(?:don'?ts?|do not|never|avoid|anti-?patterns?|forbidden)\b", re.I)
_STEPS_HEADING = re.compile(
    r"\b(?:how to|steps?|setup|set up|install\w*|getting started|build\w*|test\w*|deploy\w*|releas\w*|"
    r"run\w*|workflow|commands?|development|local dev\w*)\b",
    re.IGNORECASE,
)
_MARKER_BEGIN = re.compile(r"<!--\s*knownbase:begin\b")
_MARKER_END = re.compile(r"<!--\s*knownbase:end\b")
_NOISE = re.compile(r"^(?:<!--.*-->|!\[.*\]\(.*\)|\[.*\]\(.*\)|[-=*_]{3,}|\|.*\|)$")


def tag_for(path: str) -> str | None:
    lowered = path.lower()
    if lowered.endswith(".mdc") and "/" not in lowered:
        return "cursor-rules"  # a Cursor rule uploaded without its folder
    for pattern, tag in _ROOT_FILES:
        if pattern.search(lowered):
            return tag
    return None


def claims(files: Files) -> bool:
    """True when the upload holds a rules file by name (the reader the registry picks for it)."""
    return any(tag_for(path) is not None for path in files)


@dataclass
class _Section:
    heading: str = ""
    level: int = 0
    steps: list[tuple[int, str]] = field(default_factory=list)  # (line, text) of an ordered list


@dataclass
class _File:
    path: str
    tag: str
    paths: tuple[str, ...]
    candidates: list[Candidate] = field(default_factory=list)


def read(files: Files) -> Reading:
    # Rules files by name, and Cursor rules by their extension wherever they were saved; other
    # Markdown only when @imported, unless the upload holds no rules file at all (pasted text).
    roots = [path for path in files if tag_for(path) is not None or path.lower().endswith(".mdc")]
    if not roots:
        roots = [path for path in files if not path.lower().endswith((".json", ".jsonl"))]
    unreadable: list[tuple[str, str]] = []
    found: list[Candidate] = []
    seen: set[str] = set()
    for root in sorted(roots, key=_root_order):
        if root in seen:
            continue
        found.extend(_read_file(files, root, tag_for(root) or "rules", 0, seen, unreadable))
    return Reading(tuple(found), tuple(unreadable))


def _root_order(path: str) -> tuple[int, str]:
    # CLAUDE.md / AGENTS.md first: a rules folder they import is then read as part of them.
    return (path.count("/"), path)


def _read_file(
    files: Files, path: str, tag: str, depth: int, seen: set[str], unreadable: list[tuple[str, str]]
) -> list[Candidate]:
    seen.add(path)
    text = files[path]
    meta, body, offset = _front_matter(text, path, unreadable)
    scoped = _scope(meta, path, unreadable)
    current = _File(path, tag, scoped)
    found: list[Candidate] = []
    for kind, line, value in _statements(body, offset):
        if kind == "import":
            target = _resolve(files, path, value)
            if target is None:
                unreadable.append((path, f"line {line} imports @{value}, which is not in the upload"))
            elif target not in seen and depth < IMPORT_DEPTH:
                found.extend(_read_file(files, target, tag_for(target) or tag, depth + 1, seen, unreadable))
            continue
        found.append(_candidate(current, kind, line, value))
    return found


def _front_matter(text: str, path: str, unreadable: list[tuple[str, str]]) -> tuple[dict[str, Any], str, int]:
    if not text.startswith("---"):
        return {}, text, 0
    end = re.search(r"^---\s*$", text[3:], re.MULTILINE)
    if end is None:
        return {}, text, 0
    raw = text[3 : 3 + end.start()]
    rest = text[3 + end.end() :]
    offset = raw.count("\n") + 1
    try:
        meta = yaml.safe_load(raw) if len(raw) <= 20_000 else None
    except yaml.YAMLError:
        unreadable.append((path, "its front matter is not valid YAML; the file was read without it"))
        meta = None
    return (meta if isinstance(meta, dict) else {}), rest, offset


def _scope(meta: dict[str, Any], path: str, unreadable: list[tuple[str, str]]) -> tuple[str, ...]:
    globs: list[str] = []
    for name in ("globs", "paths", "applyTo"):
        value = meta.get(name)
        if isinstance(value, str):
            globs += [part.strip() for part in value.split(",")]
        elif isinstance(value, list):
            globs += [str(part).strip() for part in value if isinstance(part, str | int)]
    kept: list[str] = []
    for glob in globs:
        glob = glob.strip("\"'").removeprefix("./")
        if not glob or glob in ("*", "**", "**/*") or glob in kept:
            continue  # everything: no binding
        if len(glob) > limits.PATH_PATTERN.max_length:
            unreadable.append(
                (path, f"a path scope longer than {limits.PATH_PATTERN.max_length} characters was left out")
            )
            continue
        kept.append(glob)
    if len(kept) > limits.NOTE_PATHS.max_items:
        unreadable.append(
            (path, f"only the first {limits.NOTE_PATHS.max_items} of {len(kept)} path scopes were kept")
        )
    return tuple(kept[: limits.NOTE_PATHS.max_items])


def _resolve(files: Files, importer: str, target: str) -> str | None:
    if target.startswith("~/"):
        return None  # a person's home folder is not in a repository's upload
    here = posixpath.dirname(importer)
    for candidate in (posixpath.normpath(posixpath.join(here, target)), posixpath.normpath(target)):
        if candidate in files:
            return candidate
    return None


def _statements(body: str, offset: int) -> Iterator[tuple[str, int, str]]:
    """("import", line, target) for each @import, then ("statement" | "negative" | "procedure", line,
    text) for each note, in file order. Procedures carry their heading as the first line."""
    section = _Section()
    paragraph: list[str] = []
    paragraph_line = 0
    item: list[str] = []
    item_line = 0
    item_ordered = False
    in_fence = False
    fence: list[str] = []
    skipping = False
    parent_label = ""
    pending: list[tuple[str, int, str]] = []

    def flush_paragraph() -> None:
        nonlocal paragraph
        if paragraph:
            pending.append(("statement", paragraph_line, " ".join(part.strip() for part in paragraph)))
            paragraph = []

    def flush_item() -> None:
        nonlocal item
        if item:
            text = " ".join(part.strip() for part in item)
            if item_ordered:
                section.steps.append((item_line, text))
            else:
                pending.append(("statement", item_line, text))
            item = []

    def flush_steps() -> None:
        if not section.steps:
            return
        steps = section.steps
        section.steps = []
        # "Run the tests:" before the list is its lead-in: the steps and it are one procedure.
        lead = (
            pending.pop()
            if pending and pending[-1][0] == "statement" and pending[-1][2].endswith(":")
            else None
        )
        if len(steps) >= 2 and (
            lead or _STEPS_HEADING.search(section.heading) or any(_step_like(text) for _, text in steps)
        ):
            lines = [f"{index}. {text}" for index, (_, text) in enumerate(steps, start=1)]
            intro = [lead[2]] if lead else []
            start = lead[1] if lead else steps[0][0]
            pending.append(("procedure", start, "\n".join([section.heading, *intro, *lines])))
        else:
            if lead:
                pending.append(lead)
            pending.extend(("statement", line, text) for line, text in steps)

    lines = body.split("\n")
    for index, raw in enumerate(lines):
        number = index + 1 + offset
        if skipping:
            skipping = _MARKER_END.search(raw) is None
            continue
        if _MARKER_BEGIN.search(raw):
            skipping = True
            continue
        if _FENCE.match(raw):
            if in_fence:
                in_fence = False
                code = "\n".join(fence)
                fence = []
                flush_item()
                _attach_code(pending, section, code, number)
            else:
                flush_paragraph()
                in_fence = True
            continue
        if in_fence:
            fence.append(raw)
            continue
        for target in _IMPORT.findall(_without_code_spans(raw)):
            yield ("import", number, target)
        stripped = _IMPORT.sub("", raw).strip() if _only_imports(raw) else raw.strip()
        heading = _HEADING.match(raw)
        listed = _ITEM.match(raw)
        if heading:
            flush_paragraph()
            flush_item()
            flush_steps()
            yield from _emit(pending, section)
            section.heading, section.level = heading.group(2).strip(), len(heading.group(1))
            parent_label = ""
        elif listed:
            flush_paragraph()
            flush_item()
            indent, _, ordinal, text = listed.groups()
            if not (ordinal and item_ordered) and section.steps and not ordinal:
                flush_steps()
            if text.rstrip().endswith(":") and len(text) < 80:
                parent_label = text.rstrip()
                continue
            if indent and parent_label:
                text = f"{parent_label} {text}"
            elif not indent:
                parent_label = ""
            item, item_line, item_ordered = [text], number, bool(ordinal)
        elif not stripped:
            flush_paragraph()
            flush_item()
        elif item and raw.startswith((" ", "\t")):
            item.append(stripped)
        else:
            flush_item()
            flush_steps()
            if not paragraph:
                paragraph_line = number
            paragraph.append(stripped)
    flush_paragraph()
    flush_item()
    flush_steps()
    yield from _emit(pending, section)


def _emit(pending: list[tuple[str, int, str]], section: _Section) -> Iterator[tuple[str, int, str]]:
    negative = bool(_NEGATIVE_HEADING.search(section.heading))
    for kind, line, text in pending:
        if kind == "procedure":
            yield kind, line, text
            continue
        cleaned = text.strip()
        if len(cleaned) < MIN_STATEMENT or _NOISE.match(cleaned) or cleaned.endswith(":"):
            continue  # too short to say anything, markup, or a lead-in to a list
        if negative and not wording.CONSTRAINT.search(cleaned):
            cleaned = f"Don't: {cleaned}"
        yield ("negative" if negative else "statement"), line, f"{cleaned}\x1f{section.heading}"
    pending.clear()


def _attach_code(pending: list[tuple[str, int, str]], section: _Section, code: str, line: int) -> None:
    """A code block belongs to the statement before it ("Run the tests:" + the command): together
    they are a procedure. Without one, the block is a procedure of its own under the heading."""
    if not code.strip():
        return
    block = f"```\n{code}\n```"
    if pending and pending[-1][0] != "procedure":
        _, start, text = pending.pop()
        pending.append(("procedure", start, f"{section.heading}\n{text}\n{block}"))
    else:
        pending.append(("procedure", line, f"{section.heading}\n{block}"))


def _step_like(text: str) -> bool:
    return wording.PROCEDURE.match(text) is not None or wording.COMMAND.search(text) is not None


def _without_code_spans(line: str) -> str:
    return re.sub(r"`[^`]*`", "", line)


def _only_imports(line: str) -> bool:
    return bool(_IMPORT.search(line)) and not _IMPORT.sub("", line).strip(" -*+\t")


def _candidate(current: _File, kind: str, line: int, value: str) -> Candidate:
    origin = f"{current.path}:{line}"
    if kind == "procedure":
        heading, _, steps = value.partition("\n")
        return Candidate(
            content=steps.strip() if not heading else f"{heading}:\n{steps.strip()}",
            type=NoteType.PROCEDURE,
            origin=origin,
            title=heading[:120] or None,
            tags=(current.tag,),
            paths=current.paths,
        )
    text, _, heading = value.partition("\x1f")
    section_type: str | None = wording.kind(heading) or wording.kind(heading.rstrip("s"))
    default: str
    if kind == "negative":
        default = NoteType.CONSTRAINT
    elif section_type is not None:
        default = section_type
    else:
        default = NoteType.CONSTRAINT if wording.imperative(text) else NoteType.FACT
    return Candidate(
        content=text,
        type=wording.classify(text, default=default),
        origin=origin,
        tags=(current.tag,),
        paths=current.paths,
    )
