"""/api/v1 export (JSON and Markdown downloads) and import (with a dry run)."""

from __future__ import annotations

from accounts.models import AuditEvent
from memory.models import Note, Project, TransferJob
from tests.mcp_gateway.state import db_state, save


def test_export_json_is_a_download_that_imports_back(api, owner_api, cast):
    save(cast, "Ledger", "Refunds go through the ledger.", tags=["refunds"])
    exported = api.get("/projects/payments/export")
    assert exported.status == 200
    assert exported.headers["Content-Disposition"] == 'attachment; filename="payments.knownbase.json"'
    document = exported.json
    assert document["format"] == "knownbase-export" and len(document["notes"]) == 1
    dry = owner_api.post("/import", {"document": document, "slug": "copy", "dry_run": True})
    assert dry.status == 200, dry
    assert dry.json["dry_run"] is True and dry.json["would_import"] == {
        "notes": 1,
        "revisions": 0,
        "links": 0,
    }
    assert not Project.objects.filter(slug="copy").exists()
    imported = owner_api.post("/import", {"document": document, "slug": "copy"})
    assert imported.status == 201 and imported.json["imported"] == dry.json["would_import"]
    assert Note.objects.filter(project__slug="copy", title="Ledger").exists()


def test_export_markdown_whatever_accept_says(api, cast):
    save(cast, "Ledger", "Refunds go through the ledger.")
    answer = api.call(
        "GET", "/projects/payments/export", query={"format": "markdown"}, headers={"Accept": "text/html"}
    )
    assert answer.status == 200 and answer.headers["Content-Type"].startswith("text/markdown")
    assert answer.text.startswith("# Payments API") and "Refunds go through the ledger." in answer.text
    assert AuditEvent.objects.filter(action="project.exported").exists()
    assert api.get("/projects/payments/export", format="pdf").status == 400


def test_a_bad_document_or_a_taken_slug_is_400_and_writes_nothing(owner_api, api, cast):
    document = api.get("/projects/payments/export").json
    before = db_state()
    bad = owner_api.post("/import", {"document": {**document, "notes": [{"id": 1}]}, "slug": "copy"})
    assert bad.status == 400 and "notes[0]" in bad.error["message"]
    assert owner_api.post("/import", {"document": document}).status == 400  # payments exists
    assert owner_api.post("/import", {"document": "not an object"}).status == 400
    assert owner_api.post("/import", {"slug": "copy"}).status == 400
    assert db_state() == before


def test_import_needs_a_team_wide_write_credential(api, cast):
    document = api.get("/projects/payments/export").json
    for key in (cast.key(cast.viewer), cast.key(cast.owner, project=cast.payments)):
        answer = api.as_(key).post("/import", {"document": document, "slug": "copy", "dry_run": True})
        assert answer.status == 403


def test_a_failed_job_is_read_and_retried_over_rest(api, cast, django_capture_on_commit_callbacks):
    for i in range(3):
        save(cast, f"Ledger {i}", f"Refunds go through ledger {i}.")
    job = TransferJob.objects.create(
        team=cast.acme,
        user=cast.member,
        project=cast.payments,
        credential_id="a session since ended",
        kind=TransferJob.Kind.EXPORT,
        format="json",
        status=TransferJob.Status.FAILED,
        error="The worker stopped while exporting; start it again.",
    )
    path = f"/transfers/{job.public_id}"
    read = api.get(path)
    assert (
        read.status == 200
        and read.json["job"]["status"] == "failed"
        and read.json["job"]["retryable"] is True
    )
    for other in (cast.key(cast.outsider), cast.key(cast.owner)):  # not theirs: as if it did not exist
        assert api.as_(other).get(path).status == 404
        assert api.as_(other).post(f"{path}/retry", {}).status == 404

    with django_capture_on_commit_callbacks(execute=True):
        retried = api.post(f"{path}/retry", {})
    assert retried.status == 200 and retried.json["job"]["status"] == "queued", retried
    done = api.get(path).json["job"]
    assert (done["status"], done["total"]) == ("succeeded", 3) and done["url"]
    refused = api.post(f"{path}/retry", {})
    assert refused.status == 400 and "has finished" in refused.error["message"]
    assert api.get("/transfers/tj_nothing").status == 404
