"""A basic-memory project: Markdown files with front matter (title, type, tags, permalink), an
`## Observations` list of `- [category] text #tag (context)` and a `## Relations` list of
`- relation_type [[Target]]`.

Each observation is a note: its category names the type when it is a kind we know ("decision",
"technique"), else the wording does; its #tags and the file's tags are kept. A relation is a fact
("Search design implements Search spec"). A file with neither is one note: its text, typed by the
front matter's `type` or its wording.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from memory.models import NoteType
from memory.transfer.formats import wording
from memory.transfer.formats.candidate import Candidate, Files, Reading
from memory.transfer.formats.json_input import strings
from memory.transfer.formats.mem0 import tag

_OBSERVATION = re.compile(r"^\s*[-*]\s+\[([^\]\n]{1,60})\]\s+(.+?)\s*$")
_RELATION = re.compile(r"^\s*[-*]\s+([\w\- ]{1,60}?)\s+\[\[([^\]\n]{1,200})\]\]\s*(?:\(.*\))?\s*$")
_HASHTAG = re.compile(r"(?:^|\s)#([\w\-/]{1,60})")
_CONTEXT = re.compile(r"\s+\(([^()]{1,300})\)\s*$")
WHOLE_NOTE_CHARS = 8_000


def claims(files: Files) -> bool:
    return any(
        path.lower().endswith(".md") and (_OBSERVATION.search(text) or "[[" in text) and "permalink:" in text
        for path, text in files.items()
    )


def _front_matter(text: str) -> tuple[dict[str, Any], str, str | None]:
    if not text.startswith("---"):
        return {}, text, None
    end = re.search(r"^---\s*$", text[3:], re.MULTILINE)
    if end is None:
        return {}, text, None
    try:
        meta = yaml.safe_load(text[3 : 3 + end.start()])
    except yaml.YAMLError:
        return {}, text[3 + end.end() :], "its front matter is not valid YAML"
    return (meta if isinstance(meta, dict) else {}), text[3 + end.end() :], None


def read(files: Files) -> Reading:
    found: list[Candidate] = []
    unreadable: list[tuple[str, str]] = []
    for path, text in sorted(files.items()):
        if not path.lower().endswith(".md"):
            continue
        meta, body, problem = _front_matter(text)
        if problem:
            unreadable.append((path, problem))
        title = str(meta.get("title") or path.rsplit("/", 1)[-1].removesuffix(".md")).strip()
        file_tags = tuple(t for t in map(tag, strings(meta.get("tags"))) if t)
        before = len(found)
        for number, line in enumerate(body.splitlines(), start=1):
            observed = _OBSERVATION.match(line)
            related = _RELATION.match(line) if observed is None else None
            if observed:
                category, text_part = observed.groups()
                context = _CONTEXT.search(text_part)
                statement = _HASHTAG.sub("", text_part[: context.start()] if context else text_part).strip()
                if not statement:
                    continue
                hashtags = tuple(tag(t) for t in _HASHTAG.findall(text_part))
                found.append(
                    Candidate(
                        content=statement if not context else f"{statement} ({context.group(1)})",
                        type=wording.kind(category) or wording.classify(statement),
                        origin=f"{path}:{number}",
                        title=f"{title}: {statement}"[:120],
                        tags=tuple(dict.fromkeys(t for t in (*file_tags, *hashtags) if t)),
                    )
                )
            elif related:
                relation, target = related.groups()
                found.append(
                    Candidate(
                        content=f"{title} {relation.replace('_', ' ').strip()} {target.strip()}.",
                        type=NoteType.FACT,
                        origin=f"{path}:{number}",
                        tags=file_tags,
                    )
                )
        if len(found) == before and body.strip():
            whole = body.strip()[:WHOLE_NOTE_CHARS]
            found.append(
                Candidate(
                    content=whole,
                    type=wording.kind(meta.get("type")) or wording.classify(whole, default=NoteType.NOTE),
                    origin=f"{path}:1",
                    title=title[:120],
                    tags=file_tags,
                )
            )
    return Reading(tuple(found), tuple(unreadable))
