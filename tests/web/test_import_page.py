"""The import page: a JSON upload (size-capped) is first checked by a dry run that shows what it would
create and writes nothing; confirming imports it, a large one as a job with the progress bar."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from accounts.models import AuditEvent
from accounts.principal import principal_for_session
from memory import store
from memory.models import Note, Project, TransferJob
from memory.transfer.exporting import export_document
from tests.mcp_gateway.state import save
from tests.safety import harness
from tests.safety.write_paths import _document


@pytest.fixture
def export_file(cast) -> bytes:
    for i in range(3):
        save(cast, f"Imported note {i}", f"Body {i}")
    principal = principal_for_session(cast.owner, cast.acme.pk)
    assert principal is not None
    document = export_document(principal, cast.payments)
    document["project"]["slug"] = "payments-copy"
    return json.dumps(document).encode()


def upload(client, content: bytes, **fields):
    file = SimpleUploadedFile("payments.knownbase.json", content, content_type="application/json")
    return client.post("/projects/payments/import/", {"file": file, **fields})


def test_the_dry_run_shows_what_would_be_created_and_writes_nothing(as_user, cast, export_file):
    client = as_user(cast.member, cast.acme)
    notes_before = Note.objects.count()
    response = upload(client, export_file)
    assert response.status_code == 302
    job = TransferJob.objects.get()
    summary = client.get(response["Location"]).content.decode()
    assert "What the file would create" in summary
    assert '<dd id="would-notes">3 (3 current)</dd>' in summary
    assert "<code>payments-copy</code>" in summary
    assert "Import 3 notes</button>" in summary
    assert Note.objects.count() == notes_before
    assert not Project.objects.filter(slug="payments-copy").exists()
    assert job.status == "staged"

    confirmed = client.post(response["Location"])
    assert confirmed.status_code == 302
    done = client.get(response["Location"]).content.decode()
    assert 'value="100"' in done and 'href="/projects/payments-copy/"' in done
    assert Note.objects.filter(project__slug="payments-copy").count() == 3
    assert AuditEvent.objects.filter(action="project.imported", actor=cast.member).exists()
    again = client.post(response["Location"])  # confirming twice imports nothing more
    assert again.status_code == 400 and "has started already" in again.content.decode()
    assert Project.objects.filter(slug__startswith="payments-copy").count() == 1


def test_a_large_import_runs_as_a_job(
    as_user, cast, export_file, settings, django_capture_on_commit_callbacks
):
    settings.TRANSFER_TASK_THRESHOLD = 2
    client = as_user(cast.owner, cast.acme)
    job_page = upload(client, export_file, slug="bulk", name="Bulk copy")["Location"]
    with django_capture_on_commit_callbacks(execute=False) as queued:
        client.post(job_page)
    waiting = client.get(job_page).content.decode()
    assert "Waiting for a worker" in waiting and 'hx-trigger="every 1s"' in waiting
    for callback in queued:
        callback()
    done = client.get(job_page, headers={"HX-Request": "true"}).content.decode()
    assert 'value="100"' in done and "Imported 3 notes" in done and 'href="/projects/bulk/"' in done
    assert Project.objects.get(slug="bulk").name == "Bulk copy"


def test_a_viewer_cannot_import(as_user, cast, export_file):
    client = as_user(cast.viewer, cast.acme)
    page = client.get("/projects/payments/import/").content.decode()
    assert 'id="read-only"' in page and 'type="file"' not in page
    assert upload(client, export_file).status_code == 403
    assert not TransferJob.objects.exists()
    assert not Project.objects.filter(slug="payments-copy").exists()


def test_outsiders_and_anonymous_visitors(as_user, client, cast, export_file):
    member = as_user(cast.member, cast.acme)
    job_page = upload(member, export_file)["Location"]
    client.logout()
    assert client.get("/projects/payments/import/")["Location"].startswith("/login/")
    outsider = as_user(cast.outsider, cast.globex)
    assert outsider.get("/projects/payments/import/").status_code == 404
    assert upload(outsider, export_file).status_code == 404
    assert outsider.get(job_page).status_code == 404
    assert outsider.post(job_page).status_code == 404
    assert not Project.objects.filter(slug="payments-copy").exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "The file is not valid JSON (line 1, column 2)"),
        (b"\xff\xfe\x00", "The file is not UTF-8 text"),
        (b'{"format": "something"}', "The file cannot be imported: format must be"),
        (b"[1, 2]", "The file cannot be imported: The import must be a JSON object"),
    ],
)
def test_bad_files_are_form_errors(as_user, cast, content, message):
    response = upload(as_user(cast.member, cast.acme), content)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not TransferJob.objects.exists()


def test_an_oversized_file_is_refused(as_user, cast, export_file, settings):
    settings.IMPORT_MAX_BYTES = 1024
    response = upload(as_user(cast.member, cast.acme), export_file)
    assert response.status_code == 413
    assert "the limit is 1 KB" in response.content.decode()
    assert not TransferJob.objects.exists()


def test_a_file_nested_1000_deep_is_a_form_error_not_a_500(as_user, cast):
    response = upload(as_user(cast.member, cast.acme), b"[" * 1000 + b"]" * 1000)
    assert response.status_code == 400
    assert "nested deeper than 64 levels" in response.content.decode()
    assert not TransferJob.objects.exists()


def test_a_taken_slug_is_shown_on_the_slug_field(as_user, cast, export_file):
    response = upload(as_user(cast.member, cast.acme), export_file, slug="website")
    assert response.status_code == 400
    assert "exists already" in response.content.decode()
    assert 'id="id_slug_error1"' in response.content.decode()


def test_a_file_holding_a_secret_is_refused_and_nothing_is_kept(as_user, cast):
    planted = harness.plants(variants=("raw",))
    client = as_user(cast.member, cast.acme)
    for plant in planted:
        document = _document(plant.value)
        document.pop("extra")
        response = upload(client, json.dumps(document).encode())
        assert response.status_code == 400
        html = response.content.decode()
        assert "Refused:" in html and "Nothing was stored" in html
        assert plant.value not in html
    assert not TransferJob.objects.exists()
    assert harness.leaks(planted) == []


def test_the_preview_counts_notes_by_status(as_user, cast):
    for i in range(3):
        save(cast, f"Kept note {i}", f"Body {i}")
    old = save(cast, "Old rule", "Refunds take ten days.")
    store.remember(
        cast.principal(cast.member), "payments", "Refunds take five days.", title="New rule", supersedes=[old]
    )
    principal = principal_for_session(cast.owner, cast.acme.pk)
    assert principal is not None
    document = export_document(principal, cast.payments)
    document["project"]["slug"] = "payments-copy"
    client = as_user(cast.member, cast.acme)
    response = upload(client, json.dumps(document).encode())
    summary = client.get(response["Location"]).content.decode()
    assert '<dd id="would-notes">5 (4 current, 1 superseded)</dd>' in summary


def test_a_team_without_projects_imports_from_the_dashboard(as_user, cast, export_file):
    client = as_user(cast.owner, cast.acme)
    Project.objects.filter(team=cast.acme).delete()
    dashboard = client.get("/").content.decode()
    assert 'href="/projects/import/"' in dashboard
    assert "Import a project" in client.get("/projects/import/").content.decode()
    file = SimpleUploadedFile("payments.knownbase.json", export_file, content_type="application/json")
    response = client.post("/projects/import/", {"file": file})
    assert response.status_code == 302
    summary = client.get(response["Location"]).content.decode()
    assert "<code>payments-copy</code>" in summary and "Import 3 notes</button>" in summary
