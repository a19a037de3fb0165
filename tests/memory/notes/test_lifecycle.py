"""create_note and edit_note write their own audit rows, so no caller has to remember to."""

from __future__ import annotations

from django.db import transaction

from accounts.models import AuditEvent
from memory.models import Note, Project
from memory.notes.lifecycle import Memory, create_note, edit_note


def _memory(content: str) -> Memory:
    return Memory(
        content=content, title="Retries", type="fact", tags=[], importance=None, visibility="team", source=""
    )


def _events(note: Note) -> list[tuple[str, dict]]:
    rows = AuditEvent.objects.filter(object_id=note.public_id).order_by("pk")
    return [(row.action, row.detail) for row in rows]


def test_creating_and_editing_a_note_audits_each_step(cast):
    principal = cast.principal(cast.member)
    project = Project.objects.get(team_id=principal.team_id, slug="payments")
    with transaction.atomic():
        note = create_note(principal, project, _memory("Webhooks retry 3 times."))
        edit_note(note, principal, {"body": "Webhooks retry 5 times."}, max_revisions=10, fields=["body"])
        edit_note(
            note, principal, {"status": "historical"}, max_revisions=10, audit_as="note.retired", why="x"
        )
    assert [action for action, _ in _events(note)] == ["note.created", "note.updated", "note.retired"]
    assert _events(note)[1][1]["fields"] == ["body"]
    assert _events(note)[2][1]["why"] == "x"


def test_an_edit_inside_a_batch_can_leave_the_audit_to_the_batch(cast):
    principal = cast.principal(cast.member)
    project = Project.objects.get(team_id=principal.team_id, slug="payments")
    with transaction.atomic():
        note = create_note(principal, project, _memory("Amounts are stored in cents."))
        edit_note(note, principal, {"tags": ["money"]}, max_revisions=10, audit_as=None)
    assert [action for action, _ in _events(note)] == ["note.created"]
    assert Note.objects.get(pk=note.pk).version == 2
