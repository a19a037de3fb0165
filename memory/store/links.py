"""Typed links between notes."""

from __future__ import annotations

from django.db.models import Q

from accounts import audit
from accounts.errors import InvalidArgument
from accounts.principal import Principal
from memory import (
    idempotency,
    registry,
    validation,
)
from memory.models import (
    NoteLink,
)
from memory.notes.lifecycle import rfc3339
from memory.notes.scoping import note_for
from memory.shapes import results


@registry.write
def relate_notes(
    principal: Principal,
    from_id: str,
    to_id: str,
    kind: str,
    remove: bool | None = False,
    idempotency_key: str | None = None,
) -> results.LinkResult:
    source = note_for(principal, from_id)
    target = note_for(principal, to_id)
    clean_kind = validation.link_kind(kind)
    if source.pk == target.pk:
        raise InvalidArgument("A note cannot be related to itself: pass two different ids.")
    removing = validation.flag(remove, "remove")
    link: results.Link = {"from_id": source.public_id, "to_id": target.public_id, "kind": clean_kind}

    def work() -> results.LinkResult:
        existing = NoteLink.objects.filter(from_note=source, to_note=target, kind=clean_kind)
        if removing:
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

    return idempotency.run_once(
        principal,
        "relate_notes",
        idempotency_key,
        work,
        project=source.project,
        request={**link, "remove": removing},
    )


@registry.read
def list_note_links(principal: Principal, id: str) -> results.LinkList:
    """A note's links both ways: to notes it points at (outbound) and from notes that point at it
    (inbound). Links to notes the caller cannot see are left out."""
    note = note_for(principal, id)
    links = (
        NoteLink.objects.visible_to(principal)
        .filter(Q(from_note=note) | Q(to_note=note))
        .select_related("from_note", "to_note")
        .order_by("created_at", "pk")
    )
    outbound: list[results.LinkOut] = []
    inbound: list[results.LinkIn] = []
    for link in links:
        created_at = rfc3339(link.created_at)
        if link.from_note_id == note.pk:
            other = link.to_note
            outbound.append(
                {"to_id": other.public_id, "kind": link.kind, "title": other.title, "created_at": created_at}
            )
        else:
            other = link.from_note
            inbound.append(
                {
                    "from_id": other.public_id,
                    "kind": link.kind,
                    "title": other.title,
                    "created_at": created_at,
                }
            )
    return {"id": note.public_id, "outbound": outbound, "inbound": inbound}
