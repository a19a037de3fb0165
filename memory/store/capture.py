"""Capturing what an agent learns: remember (judged against what the project knows) and checkpoint."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from accounts.errors import InvalidArgument
from accounts.principal import Principal
from memory import idempotency, inputs, registry, validation
from memory.capture import remembering
from memory.models import (
    NoteType,
    Visibility,
)
from memory.notes import lifecycle
from memory.notes import paths as code_paths
from memory.notes.lifecycle import note_dict
from memory.notes.scoping import project_for
from memory.shapes import results
from memory.store.common import memory_from_args, team_plan


@registry.write
def remember(
    principal: Principal,
    project: str,
    content: str,
    type: str | None = None,
    title: str | None = None,
    tags: list[str] | None = None,
    importance: float | None = None,
    supersedes: list[str] | None = None,
    force: bool | None = None,
    idempotency_key: str | None = None,
    visibility: str | None = None,
    source: str | None = None,
    paths: list[str] | None = None,
) -> results.Remembered | results.RememberConflict:
    target = project_for(principal, project)
    memory = memory_from_args(
        content,
        type=type,
        title=title,
        tags=tags,
        importance=importance,
        visibility=visibility,
        source=source,
        supersedes=supersedes,
        force=force,
        paths=paths,
    )
    plan = team_plan(principal)
    max_revisions = plan.max_revisions_per_note
    use_semantic = plan.semantic_search
    return idempotency.run_once(
        principal,
        "remember",
        idempotency_key,
        lambda: remembering.remember(
            principal, target, memory, max_revisions=max_revisions, use_semantic=use_semantic, plan=plan
        ),
        project=target,
        request=asdict(memory),
    )


CHECKPOINT_ITEM_TYPES = {
    "decisions": NoteType.DECISION,
    "open_items": NoteType.TASK,
    "failed_approaches": NoteType.FAILED_APPROACH,
}


def _items(values: Any, field: str) -> list[str]:
    if values is None:
        return []
    if not isinstance(values, list):
        raise InvalidArgument(f"`{field}` must be a list of strings.")
    if len(values) > inputs.CHECKPOINT_ITEMS.max_items:
        raise InvalidArgument(
            f"`{field}` holds {len(values)} items; the limit is {inputs.CHECKPOINT_ITEMS.max_items}."
        )
    return [validation.text(v, f"{field}[]", limit=inputs.BODY.max_length, required=True) for v in values]


def _handoff_body(summary: str, sections: dict[str, list[str]]) -> str:
    headings = {
        "decisions": "Decisions",
        "open_items": "Open items",
        "failed_approaches": "Failed approaches",
        "next_actions": "Next actions",
    }
    parts = [summary]
    for key, heading in headings.items():
        if sections[key]:
            parts.append(f"## {heading}\n" + "\n".join(f"- {item}" for item in sections[key]))
    return "\n\n".join(parts)


@registry.write
def checkpoint(
    principal: Principal,
    project: str,
    summary: str,
    decisions: list[str] | None = None,
    open_items: list[str] | None = None,
    failed_approaches: list[str] | None = None,
    next_actions: list[str] | None = None,
    idempotency_key: str | None = None,
    paths: list[str] | None = None,
) -> results.Checkpointed:
    """`paths` binds the handoff and every item to the code the session worked on."""
    target = project_for(principal, project)
    bound = code_paths.note_patterns(paths)
    clean_summary = validation.body(summary, "summary", required=True)
    sections = {
        "decisions": _items(decisions, "decisions"),
        "open_items": _items(open_items, "open_items"),
        "failed_approaches": _items(failed_approaches, "failed_approaches"),
        "next_actions": _items(next_actions, "next_actions"),
    }
    handoff_body = _handoff_body(clean_summary, sections)
    validation.body(handoff_body, "summary")
    plan = team_plan(principal)
    max_revisions, use_semantic = plan.max_revisions_per_note, plan.semantic_search

    def work() -> results.Checkpointed:
        # Every item's lock before the handoff's insert takes the project row (see lock_statements).
        remembering.lock_statements(
            target, [item for field in CHECKPOINT_ITEM_TYPES for item in sections[field]]
        )
        handoff = lifecycle.create_note(
            principal,
            target,
            lifecycle.Memory(
                content=handoff_body,
                title="Handoff: " + validation.derive_title(clean_summary, 70),
                type=NoteType.HANDOFF,
                tags=["handoff"],
                importance=0.6,
                visibility=Visibility.TEAM,
                source=principal.client_name,
                paths=bound,
            ),
        )
        items: list[results.CheckpointItem] = []
        for field, note_type in CHECKPOINT_ITEM_TYPES.items():
            for item in sections[field]:
                memory = memory_from_args(
                    item,
                    type=note_type,
                    title=None,
                    tags=None,
                    importance=None,
                    visibility=None,
                    source=None,
                    content_field=f"{field}[]",
                    paths=bound,
                )
                outcome = remembering.remember(
                    principal, target, memory, max_revisions=max_revisions, use_semantic=use_semantic
                )
                entry: results.CheckpointItem = {
                    "kind": field,
                    "status": outcome["status"],
                    "id": outcome["note"]["id"],
                }
                if outcome["status"] == "conflict":
                    entry["message"] = outcome["message"]
                items.append(entry)
        return {"handoff": note_dict(handoff, body=False), "items": items}

    return idempotency.run_once(
        principal,
        "checkpoint",
        idempotency_key,
        work,
        project=target,
        request={"summary": clean_summary, **sections, "paths": bound},
    )
