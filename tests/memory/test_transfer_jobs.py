"""Exports and imports a page follows: small ones at once, larger ones as background jobs with progress
that always end succeeded or failed; jobs are their requester's own."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.utils import timezone

from accounts.errors import Forbidden, InvalidArgument, NotFound
from accounts.models import AuditEvent, Membership
from accounts.principal import Principal, principal_for_session
from memory import store, tasks
from memory.models import Note, Project, TransferJob
from memory.transfer import exporting, jobs
from tests.celery_broker import worker_process
from tests.mcp_gateway.state import save
from tests.memory.embeddings.test_celery_worker import REDIS_URL, wait_for


def session(cast, user) -> Principal:
    """A web session's principal: the credential a job and its download link are bound to."""
    team = cast.globex if user == cast.outsider else cast.acme
    principal = principal_for_session(user, team.pk)
    assert principal is not None
    return principal


def download(url: str | None) -> tuple[int, bytes]:
    assert url is not None, "no link to download"
    response = Client().get(urlsplit(url).path)
    return response.status_code, response.content


@pytest.fixture
def three_notes(cast) -> list[str]:
    return [save(cast, f"Note {i}", f"Body of note {i}") for i in range(3)]


@pytest.fixture
def small_threshold(settings):
    settings.TRANSFER_TASK_THRESHOLD = 2
    return settings


def run_queued(callbacks_fixture, call):
    """Call `call` and run what it queued on commit (the task runs in-process, as without Redis)."""
    with callbacks_fixture(execute=True):
        return call()


def test_a_small_project_gets_its_link_at_once(cast, three_notes):
    result = store.start_export(session(cast, cast.member), "payments", "json")
    assert result["job"] is None and result["counts"]["notes"] == 3
    status, body = download(result["url"])
    assert status == 200
    assert [note["title"] for note in json.loads(body)["notes"]] == ["Note 0", "Note 1", "Note 2"]
    assert not TransferJob.objects.exists()


def test_a_large_export_runs_as_a_job_to_100_percent(
    cast, three_notes, small_threshold, django_capture_on_commit_callbacks
):
    member = session(cast, cast.member)
    started = run_queued(
        django_capture_on_commit_callbacks, lambda: store.start_export(member, "payments", "json")
    )
    assert started["url"] is None and started["job"]["status"] == "queued"
    job = store.transfer_job(member, started["job"]["id"])["job"]
    assert (job["status"], job["progress"], job["total"], job["percent"]) == ("succeeded", 3, 3, 100)
    assert job["result"] == {"notes": 3, "revisions": 0, "links": 0}
    status, body = download(job["url"])
    assert status == 200
    document = json.loads(body)
    assert document == exporting.export_document(member, cast.payments) | {
        "exported_at": document["exported_at"]
    }
    assert AuditEvent.objects.filter(action="project.exported", actor=cast.member).exists()


def test_a_large_markdown_export(cast, three_notes, small_threshold, django_capture_on_commit_callbacks):
    member = session(cast, cast.member)
    started = run_queued(
        django_capture_on_commit_callbacks, lambda: store.start_export(member, "payments", "markdown")
    )
    assert started["job"] is not None
    job = store.transfer_job(member, started["job"]["id"])["job"]
    status, body = download(job["url"])
    assert status == 200 and body.decode().startswith("# Payments API")
    assert "### Note 2" in body.decode()


def test_progress_is_reported_batch_by_batch(cast, three_notes, monkeypatch):
    monkeypatch.setattr(exporting, "PROGRESS_BATCH", 2)
    seen: list[tuple[int, int]] = []
    document = exporting.export_document(
        session(cast, cast.member), cast.payments, lambda d, t: seen.append((d, t))
    )
    assert seen == [(0, 3), (2, 3), (3, 3)]
    assert [note["title"] for note in document["notes"]] == ["Note 0", "Note 1", "Note 2"]


def test_a_viewer_may_export_in_the_background(
    cast, three_notes, small_threshold, django_capture_on_commit_callbacks
):
    viewer = session(cast, cast.viewer)
    started = run_queued(django_capture_on_commit_callbacks, lambda: store.start_export(viewer, "payments"))
    assert store.transfer_job(viewer, started["job"]["id"])["job"]["status"] == "succeeded"


def test_jobs_are_their_requesters_own(
    cast, three_notes, small_threshold, django_capture_on_commit_callbacks
):
    started = run_queued(
        django_capture_on_commit_callbacks, lambda: store.start_export(session(cast, cast.member), "payments")
    )
    job_id = started["job"]["id"]
    for other in (cast.outsider, cast.owner, cast.viewer):
        with pytest.raises(NotFound):
            store.transfer_job(session(cast, other), job_id)
    with pytest.raises(NotFound):
        store.transfer_job(session(cast, cast.member), "tj_doesnotexist0000")
    with pytest.raises(NotFound):
        store.start_export(session(cast, cast.outsider), "payments")


def test_a_job_link_serves_only_its_own_project_and_person(
    cast, three_notes, small_threshold, django_capture_on_commit_callbacks
):
    member = session(cast, cast.member)
    started = run_queued(django_capture_on_commit_callbacks, lambda: store.start_export(member, "payments"))
    job = TransferJob.objects.get(public_id=started["job"]["id"])
    # A link naming the job, minted for someone else (the owner), finds nothing: the job is Mia's.
    url, _ = exporting.signed_export_url(session(cast, cast.owner), cast.payments, "json", job=job.public_id)
    assert download(url)[0] == 404
    Membership.objects.filter(team=cast.acme, user=cast.member).delete()
    assert download(store.transfer_job(member, job.public_id)["job"]["url"])[0] == 404


# --------------------------------------------------------------------------------------------- import


def document_of(cast, principal: Principal, slug: str = "payments-copy") -> dict:
    document = exporting.export_document(principal, cast.payments)
    document["project"]["slug"] = slug
    return document


def test_the_dry_run_writes_nothing_and_the_confirmation_imports(cast, three_notes):
    owner = session(cast, cast.owner)
    before = (Project.objects.count(), Note.objects.count())
    staged = store.start_import(owner, document_of(cast, owner))["job"]
    assert staged["status"] == "staged" and staged["total"] == 3
    assert staged["result"]["would_import"] == {"notes": 3, "revisions": 0, "links": 0}
    assert staged["result"]["project"]["slug"] == "payments-copy"
    assert (Project.objects.count(), Note.objects.count()) == before
    assert not AuditEvent.objects.filter(action="project.imported").exists()

    done = store.confirm_import(owner, staged["id"])["job"]
    assert (done["status"], done["percent"], done["project"]) == ("succeeded", 100, "payments-copy")
    assert done["result"]["imported"] == {"notes": 3, "revisions": 0, "links": 0}
    assert Note.objects.filter(project__slug="payments-copy").count() == 3
    assert TransferJob.objects.get(public_id=staged["id"]).document is None
    with pytest.raises(InvalidArgument):
        store.confirm_import(owner, staged["id"])


def test_viewers_and_read_only_keys_cannot_import(cast, three_notes):
    owner = session(cast, cast.owner)
    staged = store.start_import(owner, document_of(cast, owner))["job"]
    with pytest.raises(Forbidden):
        store.start_import(session(cast, cast.viewer), document_of(cast, owner))
    with pytest.raises(NotFound):  # the owner's staged job is not the viewer's, nor anybody else's
        store.confirm_import(session(cast, cast.member), staged["id"])
    with pytest.raises(Forbidden):
        store.confirm_import(session(cast, cast.viewer), staged["id"])
    assert not Project.objects.filter(slug="payments-copy").exists()


def test_a_bad_document_is_refused_before_anything_is_kept(cast):
    owner = session(cast, cast.owner)
    bad: Any
    for bad in ({"format": "something else"}, [], "text"):
        with pytest.raises(InvalidArgument):
            store.start_import(owner, bad)
    assert not TransferJob.objects.exists()


def test_a_large_import_runs_as_a_job(cast, three_notes, small_threshold, django_capture_on_commit_callbacks):
    owner = session(cast, cast.owner)
    staged = store.start_import(owner, document_of(cast, owner))["job"]
    queued = run_queued(django_capture_on_commit_callbacks, lambda: store.confirm_import(owner, staged["id"]))
    assert queued["job"]["status"] == "queued"
    job = store.transfer_job(owner, staged["id"])["job"]
    assert (job["status"], job["progress"], job["total"], job["percent"]) == ("succeeded", 3, 3, 100)
    assert Note.objects.filter(project__slug="payments-copy").count() == 3
    event = AuditEvent.objects.get(action="project.imported")
    assert (event.actor_id, event.project_slug) == (cast.owner.pk, "payments-copy")


def test_an_import_that_cannot_run_ends_failed_and_writes_nothing(
    cast, three_notes, small_threshold, django_capture_on_commit_callbacks
):
    owner = session(cast, cast.owner)
    with pytest.raises(InvalidArgument, match="exists already"):  # checked when staged
        store.start_import(owner, document_of(cast, owner, slug="website"))
    staged = store.start_import(owner, document_of(cast, owner))["job"]
    Project.objects.create(team=cast.acme, slug="payments-copy", name="Taken meanwhile")
    run_queued(django_capture_on_commit_callbacks, lambda: store.confirm_import(owner, staged["id"]))
    job = store.transfer_job(owner, staged["id"])["job"]
    assert job["status"] == "failed" and "exists already" in job["error"]
    assert Note.objects.filter(project__slug="payments-copy").count() == 0
    # The document stays until the import succeeds: once the slug is free, a retry imports it.
    assert job["retryable"] is True
    Project.objects.filter(slug="payments-copy").delete()
    run_queued(django_capture_on_commit_callbacks, lambda: store.retry_transfer_job(owner, staged["id"]))
    assert store.transfer_job(owner, staged["id"])["job"]["status"] == "succeeded"
    assert Note.objects.filter(project__slug="payments-copy").count() == 3
    assert TransferJob.objects.get(public_id=staged["id"]).document is None


def test_a_job_whose_credential_is_gone_fails(
    cast, three_notes, small_threshold, django_capture_on_commit_callbacks
):
    member = session(cast, cast.member)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        started = store.start_export(member, "payments")
    Membership.objects.filter(team=cast.acme, user=cast.member).delete()
    for callback in queued:
        callback()
    assert started["job"] is not None
    job = TransferJob.objects.get(public_id=started["job"]["id"])
    assert job.status == "failed" and job.error == jobs.CREDENTIAL_GONE and job.finished_at is not None


def test_an_unexpected_error_fails_the_job(
    cast, three_notes, small_threshold, django_capture_on_commit_callbacks, monkeypatch
):
    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(jobs, "export_document", broken)
    member = session(cast, cast.member)
    started = run_queued(django_capture_on_commit_callbacks, lambda: store.start_export(member, "payments"))
    job = store.transfer_job(member, started["job"]["id"])["job"]
    assert (job["status"], job["error"], job["url"]) == ("failed", jobs.UNEXPECTED, None)
    assert "disk on fire" not in job["error"]


def test_a_broker_that_is_down_fails_the_job(
    cast, three_notes, small_threshold, django_capture_on_commit_callbacks, monkeypatch
):
    def down(*args, **kwargs):
        raise ConnectionError("no broker")

    monkeypatch.setattr(tasks.run_transfer_job, "apply_async", down)
    member = session(cast, cast.member)
    started = run_queued(django_capture_on_commit_callbacks, lambda: store.start_export(member, "payments"))
    job = store.transfer_job(member, started["job"]["id"])["job"]
    assert job["status"] == "failed" and "could not be queued" in job["error"]


def test_a_job_nobody_ran_is_reported_failed_and_never_starts_late(
    cast, three_notes, small_threshold, django_capture_on_commit_callbacks
):
    member = session(cast, cast.member)
    with django_capture_on_commit_callbacks(execute=False):
        started = store.start_export(member, "payments")
    assert started["job"] is not None
    job = TransferJob.objects.get(public_id=started["job"]["id"])
    assert store.transfer_job(member, job.public_id)["job"]["status"] == "queued"
    TransferJob.objects.filter(pk=job.pk).update(
        updated_at=timezone.now() - jobs.STALE_AFTER - timedelta(seconds=1)
    )
    shown = store.transfer_job(member, job.public_id)["job"]
    assert (shown["status"], shown["error"]) == ("failed", jobs.STALE)
    assert tasks.run_transfer_job(job.pk) == "not queued"
    assert TransferJob.objects.get(pk=job.pk).progress == 0


def test_a_second_delivery_runs_nothing_twice(
    cast, three_notes, small_threshold, django_capture_on_commit_callbacks
):
    owner = session(cast, cast.owner)
    staged = store.start_import(owner, document_of(cast, owner))["job"]
    run_queued(django_capture_on_commit_callbacks, lambda: store.confirm_import(owner, staged["id"]))
    job = TransferJob.objects.get(public_id=staged["id"])
    assert tasks.run_transfer_job(job.pk) == "not queued"
    assert Project.objects.filter(slug="payments-copy").count() == 1
    assert TransferJob.objects.get(pk=job.pk).status == "succeeded"


def test_old_jobs_are_purged(cast, three_notes):
    owner = session(cast, cast.owner)
    staged = store.start_import(owner, document_of(cast, owner))["job"]
    assert jobs.purge() == 0
    assert jobs.purge(timezone.now() + jobs.KEEP_FOR + timedelta(seconds=1)) == 1
    assert not TransferJob.objects.filter(public_id=staged["id"]).exists()


# ------------------------------------------------------------------------------ through a real worker


@pytest.fixture
def worker(transactional_db, settings) -> Iterator[str]:
    """A Celery worker process on the machine's Redis, as tests/memory/embeddings runs one, without
    embeddings (this test is about transfers, and the model would only load the machine)."""
    settings.EMBEDDINGS_PROVIDER = "none"
    with worker_process(REDIS_URL, "knownbase-transfer-test", EMBEDDINGS_PROVIDER="none") as queue:
        yield queue


def finished(principal: Principal, job_id: str) -> bool:
    return bool(store.transfer_job(principal, job_id)["job"]["finished"])


@pytest.mark.slow
def test_the_worker_runs_an_export_and_an_import_to_the_end(cast, worker, settings):
    settings.TRANSFER_TASK_THRESHOLD = 2
    for i in range(3):
        save(cast, f"Worker note {i}", f"Body {i}")
    member = session(cast, cast.member)
    started = store.start_export(member, "payments", "json")
    assert started["job"] is not None
    export_id = started["job"]["id"]
    assert wait_for(lambda: finished(member, export_id))
    job = store.transfer_job(member, export_id)["job"]
    assert (job["status"], job["progress"], job["total"], job["percent"]) == ("succeeded", 3, 3, 100)
    status, body = download(job["url"])
    assert status == 200
    document = json.loads(body)
    assert sorted(note["title"] for note in document["notes"]) == [f"Worker note {i}" for i in range(3)]

    document["project"]["slug"] = "payments-copy"
    owner = session(cast, cast.owner)
    staged = store.start_import(owner, document)["job"]
    assert store.confirm_import(owner, staged["id"])["job"]["status"] == "queued"
    assert wait_for(lambda: finished(owner, staged["id"]))
    assert store.transfer_job(owner, staged["id"])["job"]["status"] == "succeeded"
    assert Note.objects.filter(project__slug="payments-copy").count() == 3


@pytest.mark.slow
def test_the_worker_fails_a_job_it_cannot_run(cast, three_notes, worker, settings):
    settings.TRANSFER_TASK_THRESHOLD = 0
    owner = session(cast, cast.owner)
    staged = store.start_import(owner, document_of(cast, owner))["job"]
    Project.objects.create(team=cast.acme, slug="payments-copy", name="Taken meanwhile")
    store.confirm_import(owner, staged["id"])
    assert wait_for(lambda: finished(owner, staged["id"]))
    job = store.transfer_job(owner, staged["id"])["job"]
    assert job["status"] == "failed" and "exists already" in job["error"]
