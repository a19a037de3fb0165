"""Typed links between notes."""

from __future__ import annotations

from typing import Any

from accounts import audit
from accounts.errors import InvalidArgument
from accounts.principal import Principal
from memory import (
    registry,
    validation,
)
from memory.models import (
    NoteLink,
)
from memory.scoping import note_for


@registry.write
def relate_notes(
    principal: Principal, from_id: str, to_id: str, kind: str, remove: bool | None = False
) -> dict[str, Any]:
    source = note_for(principal, from_id)
    target = note_for(principal, to_id)
    clean_kind = validation.link_kind(kind)
    if source.pk == target.pk:
        raise InvalidArgument("A note cannot be related to itself: pass two different ids.")
    link = {"from_id": source.public_id, "to_id": target.public_id, "kind": clean_kind}
    existing = NoteLink.objects.filter(from_note=source, to_note=target, kind=clean_kind)
    if validation.flag(remove, "remove"):
        removed = existing.delete()[0] > 0
        if removed:
            audit.record(
                principal,
                "link.removed",
                project_id=source.project_id,
                project_slug=source.project.slug,
                object_id=source.public_id,
            )
        return {"status": "removed" if removed else "absent", "link": link}
    if existing.exists():
        return {"status": "exists", "link": link}
    NoteLink.objects.create(
        from_note=source, to_note=target, kind=clean_kind, created_by_id=principal.user_id
    )
    audit.record(
        principal,
        "link.created",
        project_id=source.project_id,
        project_slug=source.project.slug,
        object_id=source.public_id,
        kind=clean_kind,
    )
    return {"status": "created", "link": link}
