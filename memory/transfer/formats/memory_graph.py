"""The reference MCP memory server's knowledge graph (modelcontextprotocol/servers, src/memory): a
JSONL file, one object a line, `{"type": "entity", "name", "entityType", "observations": [...]}` or
`{"type": "relation", "from", "to", "relationType"}`.

Each observation is a note about its entity: titled "<entity>: <observation>", tagged with the
entity's type, typed by its wording. A relation is a fact ("Alice works_at Acme", with the
underscores read as spaces), tagged with both ends' types when they are known.
"""

from __future__ import annotations

import re

from memory.models import NoteType
from memory.transfer.formats import wording
from memory.transfer.formats.candidate import Candidate, Files, Reading
from memory.transfer.formats.json_input import load, text_of

_TAG_UNSAFE = re.compile(r"[^a-z0-9\-_.:/+#]+")


def claims(files: Files) -> bool:
    return any(path.lower().endswith(".jsonl") and '"entityType"' in text for path, text in files.items())


def _tag(value: str) -> str:
    return _TAG_UNSAFE.sub("-", value.strip().lower()).strip("-")[:64]


def read(files: Files) -> Reading:
    found: list[Candidate] = []
    unreadable: list[tuple[str, str]] = []
    for path, text in files.items():
        kinds: dict[str, str] = {}
        relations: list[tuple[int, dict[str, object]]] = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            record, problem = load(line)
            if problem is not None or not isinstance(record, dict):
                unreadable.append((f"{path}:{number}", problem or "is not a JSON object"))
                continue
            if record.get("type") == "relation":
                relations.append((number, record))
                continue
            name = text_of(record.get("name"))
            if record.get("type") != "entity" or name is None:
                unreadable.append((f"{path}:{number}", "is neither an entity with a name nor a relation"))
                continue
            entity_type = text_of(record.get("entityType")) or ""
            kinds[name] = entity_type
            observations = record.get("observations")
            for observation in observations if isinstance(observations, list) else []:
                content = text_of(observation)
                if content is None:
                    continue
                found.append(
                    Candidate(
                        content=content,
                        type=wording.classify(content),
                        origin=f"{path}:{number}",
                        title=f"{name}: {content}"[:120],
                        tags=tuple(tag for tag in (_tag(entity_type),) if tag),
                    )
                )
        for number, record in relations:
            source, target = text_of(record.get("from")), text_of(record.get("to"))
            relation = text_of(record.get("relationType"))
            if source is None or target is None or relation is None:
                unreadable.append((f"{path}:{number}", "is a relation without from, to and relationType"))
                continue
            tags = tuple(dict.fromkeys(_tag(kinds[n]) for n in (source, target) if kinds.get(n)))
            found.append(
                Candidate(
                    content=f"{source} {relation.replace('_', ' ')} {target}.",
                    type=NoteType.FACT,
                    origin=f"{path}:{number}",
                    tags=tuple(tag for tag in tags if tag),
                )
            )
    return Reading(tuple(found), tuple(unreadable))
