"""An mcp-memory-service export: `{"export_metadata": {...}, "memories": [...]}` (or a bare list),
each memory `{"content", "content_hash", "tags", "memory_type", "metadata", "created_at", ...}`.

`memory_type` names the type when it is a kind we know ("decision", "note", "reference"...), else
the wording does; tags (a list, or one comma-separated string) are kept.
"""

from __future__ import annotations

from memory.transfer.formats import wording
from memory.transfer.formats.candidate import Candidate, Files, Reading
from memory.transfer.formats.json_input import load, strings, text_of
from memory.transfer.formats.mem0 import records, tag


def claims(files: Files) -> bool:
    return any(
        path.lower().endswith(".json") and ('"content_hash"' in text or '"memory_type"' in text)
        for path, text in files.items()
    )


def read(files: Files) -> Reading:
    found: list[Candidate] = []
    unreadable: list[tuple[str, str]] = []
    for path, text in files.items():
        document, problem = load(text)
        memories = records(document, ("memories", "results")) if problem is None else None
        if memories is None:
            unreadable.append((path, problem or "holds no list of memories"))
            continue
        for index, memory in enumerate(memories):
            content = text_of(memory.get("content")) if isinstance(memory, dict) else None
            if content is None or not isinstance(memory, dict):
                unreadable.append((f"{path}#{index}", "is not a memory with content"))
                continue
            named = wording.kind(memory.get("memory_type"))
            if named == "note":
                named = None  # the service's default kind says nothing: read the wording
            found.append(
                Candidate(
                    content=content,
                    type=named or wording.classify(content),
                    origin=f"{path}#{index}",
                    tags=tuple(dict.fromkeys(t for t in map(tag, strings(memory.get("tags"))) if t)),
                )
            )
    return Reading(tuple(found), tuple(unreadable))
