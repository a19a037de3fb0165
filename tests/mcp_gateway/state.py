"""Helpers shared by the per-tool MCP tests: notes made through the store, and a snapshot of every row a
tool could change, to prove that a refused call changed nothing.

Each tool's module opens with its live contract test (`mcp`: the official client over HTTP to a real
server); its other cases call the same server in process (`local_mcp`, tests/inprocess_mcp.py)."""

from __future__ import annotations

import json
from typing import Any

from memory import store
from memory.models import Note, NoteLink, NoteRevision, Project

# The fields of the contract's note object.
NOTE_FIELDS = {
    "id",
    "project",
    "type",
    "status",
    "title",
    "version",
    "tags",
    "importance",
    "visibility",
    "updated_at",
}


def save(cast: Any, title: str, body: str, *, user: Any = None, project: str = "payments", **fields) -> str:
    """Create a note through the store as `user` (Mia by default) and return its public id."""
    principal = cast.principal(user or cast.member)
    result = store.create_note(principal, project=project, title=title, body=body, **fields)
    note_id: str = result["note"]["id"]
    return note_id


def edit(cast: Any, note_id: str, **fields) -> None:
    store.update_note(cast.principal(cast.member), id=note_id, **fields)


def db_state() -> dict[str, list[Any]]:
    """Every row of notes, revisions, links and projects (not read counters: reads may bump those)."""
    return {
        "notes": list(
            Note.objects.order_by("pk").values_list(
                "public_id",
                "project_id",
                "version",
                "type",
                "status",
                "title",
                "body",
                "tags",
                "importance",
                "visibility",
                "updated_at",
                "deleted_at",
                "superseded_by_id",
            )
        ),
        "revisions": list(NoteRevision.objects.order_by("pk").values_list("note_id", "version", "body")),
        "links": list(NoteLink.objects.order_by("pk").values_list("from_note_id", "to_note_id", "kind")),
        "projects": list(Project.objects.order_by("pk").values_list("team_id", "slug", "name", "summary")),
    }


def text_matches_structured(result: Any) -> bool:
    """The contract: the text content is the structured content as JSON."""
    return bool(json.loads(result.content[0].text) == result.structured_content)
