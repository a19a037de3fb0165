"""import_project with dry_run: every check of a real import, the counts it would write, no rows;
and export_content, the export a REST caller downloads in one request."""

from __future__ import annotations

import copy

import pytest

from accounts.errors import InvalidArgument, PlanLimit, Screened
from accounts.models import AuditEvent
from memory import store
from memory.models import Note, NoteLink, NoteRevision, Project
from memory.transfer import export_document


@pytest.fixture
def document(cast):
    principal = cast.principal(cast.member)
    a = store.create_note(principal, "payments", "Ledger", "Refunds go through the ledger.")["note"]["id"]
    b = store.create_note(principal, "payments", "Cents", "Amounts are in cents.")["note"]["id"]
    store.update_note(principal, a, body="Refunds go through the ledger service.")
    store.relate_notes(principal, a, b, "depends_on")
    store.delete_note(principal, b)
    return export_document(principal, cast.payments)


def rows():
    return (
        Project.objects.count(),
        Note.objects.count(),
        NoteRevision.objects.count(),
        NoteLink.objects.count(),
    )


def test_dry_run_reports_the_counts_of_the_real_import_and_writes_nothing(cast, document):
    owner = cast.principal(cast.owner)
    before = rows()
    report = store.import_project(owner, document, slug="copy", dry_run=True)
    assert rows() == before
    assert not AuditEvent.objects.filter(action="project.imported").exists()
    assert report["dry_run"] is True
    assert report["project"] == {"slug": "copy", "name": "Payments API", "summary": "", "notes": 1}
    real = store.import_project(owner, document, slug="copy")
    assert report["would_import"] == real["imported"] == {"notes": 2, "revisions": 2, "links": 1}


def test_dry_run_makes_every_check_of_the_import(cast, document):
    owner = cast.principal(cast.owner)
    broken = copy.deepcopy(document)
    broken["notes"][0]["type"] = "memo"
    with pytest.raises(InvalidArgument, match=r"notes\[0\]\.type"):
        store.import_project(owner, broken, slug="copy", dry_run=True)
    with pytest.raises(InvalidArgument, match="exists already"):
        store.import_project(owner, document, dry_run=True)  # the document's own slug, payments
    secret = copy.deepcopy(document)
    secret["notes"][0]["body"] = "token ghp_16C7e42F292c6912E7710c838347Ae178B4a"
    with pytest.raises(Screened):
        store.import_project(owner, secret, slug="copy", dry_run=True)
    cast.plan.max_projects = 2
    cast.plan.save()
    with pytest.raises(PlanLimit):
        store.import_project(owner, document, slug="copy", dry_run=True)
    with pytest.raises(InvalidArgument):
        store.import_project(owner, document, slug="copy", dry_run="yes")  # type: ignore[call-overload]
    assert Project.objects.filter(slug="copy").count() == 0


def test_export_content_is_the_document_or_the_markdown(cast, document):
    principal = cast.principal(cast.member)
    exported = store.export_content(principal, "payments")
    assert (exported["format"], exported["filename"]) == ("json", "payments.knownbase.json")
    document_out, markdown = exported["content"], store.export_content(principal, "payments", "markdown")
    assert isinstance(document_out, dict) and isinstance(markdown["content"], str)
    assert document_out["format"] == "knownbase-export" and len(document_out["notes"]) == 2
    assert markdown["filename"] == "payments.md" and markdown["content"].startswith("# Payments API")
    assert AuditEvent.objects.filter(action="project.exported").count() == 2
    with pytest.raises(InvalidArgument):
        store.export_content(principal, "payments", "pdf")


@pytest.mark.parametrize("moment", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"])
def test_a_time_outside_utc_years_is_invalid_argument(cast, moment):
    document = export_document(cast.principal(cast.member), cast.payments)
    document["exported_at"] = moment
    with pytest.raises(InvalidArgument, match="exported_at"):
        store.import_project(cast.principal(cast.owner), document, slug="copy", dry_run=True)
