"""A Mem0 export: the memories `get_all` returns (`{"results": [...]}`), a bare list of them, or
`{"memories": [...]}`. A memory is `{"id", "memory", "metadata", "categories", "created_at", ...}`.

The memory text is the note. Its type comes from `metadata.type` or a category when either names a
kind we know ("decision", "preferences"), else from its wording; categories become tags.
"""

from __future__ import annotations

import re
from typing import Any

from memory.transfer.formats import wording
from memory.transfer.formats.candidate import Candidate, Files, Reading
from memory.transfer.formats.json_input import load, strings, text_of

_TAG_UNSAFE = re.compile(r"[^a-z0-9\-_.:/+#]+")


def records(document: Any, names: tuple[str, ...]) -> list[Any] | None:
    if isinstance(document, list):
        return document
    if isinstance(document, dict):
        for name in names:
            if isinstance(document.get(name), list):
                return list(document[name])
    return None


def tag(value: str) -> str:
    return _TAG_UNSAFE.sub("-", value.strip().lower()).strip("-")[:64]


def claims(files: Files) -> bool:
    return any(path.lower().endswith(".json") and '"memory"' in text for path, text in files.items())


def read(files: Files) -> Reading:
    found: list[Candidate] = []
    unreadable: list[tuple[str, str]] = []
    for path, text in files.items():
        document, problem = load(text)
        memories = records(document, ("results", "memories")) if problem is None else None
        if memories is None:
            unreadable.append((path, problem or "holds no list of memories (results or memories)"))
            continue
        for index, memory in enumerate(memories):
            content = (
                text_of(memory.get("memory") or memory.get("text")) if isinstance(memory, dict) else None
            )
            if content is None or not isinstance(memory, dict):
                unreadable.append((f"{path}#{index}", "is not a memory with text"))
                continue
            raw_metadata = memory.get("metadata")
            metadata: dict[str, Any] = raw_metadata if isinstance(raw_metadata, dict) else {}
            categories = strings(memory.get("categories"))
            named = wording.kind(metadata.get("type")) or next(
                (found_kind for c in categories if (found_kind := wording.kind(c))), None
            )
            found.append(
                Candidate(
                    content=content,
                    type=named or wording.classify(content),
                    origin=f"{path}#{index}",
                    tags=tuple(dict.fromkeys(t for t in map(tag, categories) if t)),
                )
            )
    return Reading(tuple(found), tuple(unreadable))
