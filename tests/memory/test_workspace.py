"""relate_notes, rename_project, rename_tag and get_usage through the store."""

from __future__ import annotations

import pytest

from accounts.errors import Forbidden, InvalidArgument, NotFound, PlanLimit
from accounts.models import AuditEvent
from memory import store
from memory.models import Note, NoteLink, Project


def save(cast, title, project="payments", who=None, **kwargs):
    return store.create_note(
        cast.principal(who or cast.member), project=project, title=title, body=title, **kwargs
    )["note"]["id"]


def test_relate_creates_reports_existing_and_removes(cast):
    a, b = save(cast, "A"), save(cast, "B", project="website")
    principal = cast.principal(cast.member)
    assert store.relate_notes(principal, a, b, "depends_on")["status"] == "created"
    assert store.relate_notes(principal, a, b, "depends_on")["status"] == "exists"
    assert NoteLink.objects.count() == 1
    assert store.relate_notes(principal, a, b, "depends_on", remove=True)["status"] == "removed"
    assert store.relate_notes(principal, a, b, "depends_on", remove=True)["status"] == "absent"
    assert not NoteLink.objects.exists()


def test_relate_refuses_self_bad_kind_and_foreign_ids(cast):
    a = save(cast, "A")
    foreign = save(cast, "F", project="lab", who=cast.outsider)
    principal = cast.principal(cast.member)
    with pytest.raises(InvalidArgument):
        store.relate_notes(principal, a, a, "relates_to")
    with pytest.raises(InvalidArgument):
        store.relate_notes(principal, a, save(cast, "B"), "likes")
    with pytest.raises(NotFound):
        store.relate_notes(principal, a, foreign, "relates_to")
    with pytest.raises(NotFound):
        store.relate_notes(cast.principal(cast.outsider), foreign, a, "relates_to")
    assert not NoteLink.objects.exists()


def test_rename_project(cast):
    result = store.rename_project(cast.principal(cast.owner), "payments", name="Payments", slug="billing")
    assert result["project"]["slug"] == "billing"
    assert Project.objects.get(pk=cast.payments.pk).name == "Payments"
    with pytest.raises(InvalidArgument, match="exists already"):
        store.rename_project(cast.principal(cast.owner), "billing", slug="website")
    with pytest.raises(InvalidArgument):
        store.rename_project(cast.principal(cast.owner), "billing")
    with pytest.raises(NotFound):
        store.rename_project(cast.principal(cast.outsider), "billing", name="x")
    with pytest.raises(Forbidden):
        store.rename_project(cast.principal(cast.viewer), "billing", name="x")
    assert AuditEvent.objects.filter(action="project.renamed").count() == 1


def test_rename_tag_merges_and_keeps_revisions(cast):
    a = save(cast, "A", tags=["db", "postgres"])
    b = save(cast, "B", tags=["database"])
    other_project = save(cast, "C", project="website", tags=["db"])
    result = store.rename_tag(cast.principal(cast.member), "payments", "db", "database")
    assert result["notes_updated"] == 1
    assert Note.objects.get(public_id=a).tags == ["database", "postgres"]
    assert Note.objects.get(public_id=a).version == 2
    assert Note.objects.get(public_id=b).tags == ["database"]
    assert Note.objects.get(public_id=other_project).tags == ["db"]


def test_rename_tag_rejects_bad_tags(cast):
    with pytest.raises(InvalidArgument):
        store.rename_tag(cast.principal(cast.member), "payments", "db", "bad tag!")
    with pytest.raises(InvalidArgument):
        store.rename_tag(cast.principal(cast.member), "payments", "db", "db")


def test_get_usage_reports_plan_caps_and_usage(cast):
    save(cast, "A")
    usage = store.get_usage(cast.principal(cast.viewer))
    assert usage["plan"] == {"code": "developer", "name": "Developer"}
    assert usage["caps"]["notes"] == cast.plan.max_notes
    assert usage["usage"] == {"projects": 2, "notes": 1, "members": 3, "api_keys": 0}
    assert store.get_usage(cast.principal(cast.outsider))["usage"]["notes"] == 0


def test_project_cap_refuses_create_project(cast):
    plan = cast.plan
    plan.max_projects = 2
    plan.save()
    with pytest.raises(PlanLimit) as refused:
        store.create_project(cast.principal(cast.owner), name="Third")
    assert refused.value.details["cap"] == "projects"
    assert Project.objects.filter(team=cast.acme).count() == 2


def test_a_downgrade_keeps_data_and_refuses_new_writes(cast):
    for i in range(3):
        save(cast, f"Note {i}")
    plan = cast.plan
    plan.max_notes = 1
    plan.save()
    assert Note.objects.filter(team=cast.acme).count() == 3
    with pytest.raises(PlanLimit):
        save(cast, "One more")
    # Edits of existing notes still work.
    note_id = Note.objects.filter(team=cast.acme).earliest("pk").public_id
    store.patch_note(cast.principal(cast.member), note_id, "append", "still editable")
