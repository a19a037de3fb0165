"""The export page: a small project downloads at once through the signed link; a large one becomes
a job whose page shows a progress bar, polled by htmx, and then the link."""

from __future__ import annotations

import json
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from django.utils import timezone

from memory import tasks
from memory.models import TransferJob
from tests.mcp_gateway.state import save


@pytest.fixture
def notes(cast) -> list[str]:
    return [save(cast, f"Export me {i}", f"Body {i}") for i in range(3)]


def test_the_page_offers_both_formats(as_user, cast, notes):
    html = as_user(cast.member, cast.acme).get("/projects/payments/export/").content.decode()
    assert 'value="json"' in html and 'value="markdown"' in html
    assert "3 current notes" in html
    assert 'href="/projects/payments/"' in html


def test_a_small_export_downloads_through_the_signed_link(as_user, cast, notes):
    client = as_user(cast.member, cast.acme)
    response = client.post("/projects/payments/export/", {"format": "json"})
    assert response.status_code == 303
    link = urlsplit(response["Location"])
    assert link.path.startswith("/exports/")
    download = client.get(link.path)
    assert download.status_code == 200
    assert download["Content-Disposition"] == 'attachment; filename="payments.knownbase.json"'
    assert sorted(n["title"] for n in json.loads(download.content)["notes"]) == [
        "Export me 0",
        "Export me 1",
        "Export me 2",
    ]
    assert not TransferJob.objects.exists()


def test_a_large_export_shows_progress_then_the_link(
    as_user, cast, notes, settings, django_capture_on_commit_callbacks
):
    settings.TRANSFER_TASK_THRESHOLD = 2
    client = as_user(cast.member, cast.acme)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = client.post("/projects/payments/export/", {"format": "markdown"})
    assert response.status_code == 302
    job = TransferJob.objects.get()
    assert response["Location"] == f"/transfers/{job.public_id}/"

    waiting = client.get(response["Location"]).content.decode()
    assert '<progress id="transfer-progress" max="100" value="0">' in waiting
    assert 'hx-trigger="every 1s"' in waiting and f'hx-get="/transfers/{job.public_id}/"' in waiting
    assert '<noscript><meta http-equiv="refresh" content="2"></noscript>' in waiting
    assert ">Refresh</a>" in waiting

    for callback in queued:  # the worker's turn (in-process here)
        callback()
    fragment = client.get(response["Location"], headers={"HX-Request": "true"})
    html = fragment.content.decode()
    assert "<html" not in html  # htmx gets the fragment only
    assert 'value="100"' in html and "hx-trigger" not in html  # done: polling stops
    link = urlsplit(_download_href(html)).path
    download = client.get(link)
    assert download.status_code == 200
    assert download["Content-Disposition"] == 'attachment; filename="payments.md"'
    assert "### Export me 1" in download.content.decode()


def _download_href(html: str) -> str:
    start = html.index('id="download" href="') + len('id="download" href="')
    return html[start : html.index('"', start)].replace("&amp;", "&")


def test_a_viewer_can_export(as_user, cast, notes):
    response = as_user(cast.viewer, cast.acme).post("/projects/payments/export/", {"format": "json"})
    assert response.status_code == 303


def test_a_bad_format_is_a_form_error(as_user, cast, notes):
    response = as_user(cast.member, cast.acme).post("/projects/payments/export/", {"format": "csv"})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()


def test_another_teams_project_and_job_are_not_found(
    as_user, cast, notes, settings, django_capture_on_commit_callbacks
):
    settings.TRANSFER_TASK_THRESHOLD = 0
    member = as_user(cast.member, cast.acme)
    member.post("/projects/payments/export/", {"format": "json"})
    job = TransferJob.objects.get()
    outsider = as_user(cast.outsider, cast.globex)
    assert outsider.get("/projects/payments/export/").status_code == 404
    assert outsider.post("/projects/payments/export/", {"format": "json"}).status_code == 404
    assert outsider.get(f"/transfers/{job.public_id}/").status_code == 404
    owner = as_user(cast.owner, cast.acme)  # the same team, but not their job
    assert owner.get(f"/transfers/{job.public_id}/").status_code == 404
    assert owner.get("/transfers/tj_nothing/").status_code == 404


def test_anonymous_visitors_are_sent_to_sign_in(client, cast):
    for path in ("/projects/payments/export/", "/transfers/tj_whatever/"):
        response = client.get(path)
        assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_in_chromium_the_progress_bar_follows_the_job_to_the_link(
    browser_page, site_url, cast, settings, monkeypatch
):
    """htmx polls the job page every second: the bar and the link appear without a reload."""
    from django.conf import settings as live_settings
    from django.test import Client

    from memory.transfer import jobs
    from tests.web.browser import screenshot
    from web.session import TEAM_SESSION_KEY

    settings.EMBEDDINGS_PROVIDER = "none"
    settings.TRANSFER_TASK_THRESHOLD = 2
    for i in range(3):
        save(cast, f"Export me {i}", f"Body {i}")
    monkeypatch.setattr(jobs, "queue", lambda job_pk: None)  # the worker comes when the test says
    client = Client()
    client.force_login(cast.member)
    session = client.session
    session[TEAM_SESSION_KEY] = cast.acme.pk
    session.save()
    page = browser_page
    page.context.add_cookies(
        [{"name": live_settings.SESSION_COOKIE_NAME, "value": session.session_key or "", "url": site_url}]
    )
    page.goto("/projects/payments/export/")
    page.get_by_label("Markdown", exact=False).check()
    page.get_by_role("button", name="Export").click()
    page.wait_for_url("**/transfers/*/")
    assert page.locator("#transfer-progress").get_attribute("value") == "0"
    assert "Waiting for a worker" in page.locator("#transfer-status").inner_text()
    screenshot(page, "transfer-export-waiting")

    tasks.run_transfer_job(TransferJob.objects.get().pk)
    page.locator("#download").wait_for()
    assert page.locator("#transfer-progress").get_attribute("value") == "100"
    screenshot(page, "transfer-export-done")
    href = page.locator("#download").get_attribute("href") or ""
    download = page.request.get(site_url + urlsplit(href).path)
    assert download.status == 200 and "### Export me 2" in download.text()


def test_a_job_whose_worker_stopped_says_so_and_a_retry_runs_it_again(
    as_user, cast, notes, settings, django_capture_on_commit_callbacks
):
    settings.TRANSFER_TASK_THRESHOLD = 2
    client = as_user(cast.member, cast.acme)
    with django_capture_on_commit_callbacks(execute=False):
        client.post("/projects/payments/export/", {"format": "json"})
    job = TransferJob.objects.get()
    silent = timedelta(seconds=settings.TRANSFER_JOB_SILENT_SECONDS + 1)
    TransferJob.objects.filter(pk=job.pk).update(
        status="running", progress=1, heartbeat_at=timezone.now() - silent
    )

    stopped = client.get(f"/transfers/{job.public_id}/").content.decode()
    assert "The worker stopped while exporting; start it again." in stopped
    assert f'action="/transfers/{job.public_id}/retry/"' in stopped and "Retry the export" in stopped
    assert 'hx-trigger="every 1s"' not in stopped  # finished: the page stops polling
    assert client.get(f"/transfers/{job.public_id}/retry/").status_code == 405
    for other, team in ((cast.outsider, cast.globex), (cast.owner, cast.acme)):
        assert as_user(other, team).post(f"/transfers/{job.public_id}/retry/").status_code == 404

    client = as_user(cast.member, cast.acme)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/transfers/{job.public_id}/retry/")
    assert response.status_code == 302 and response["Location"] == f"/transfers/{job.public_id}/"
    assert 'id="download"' in client.get(response["Location"]).content.decode()
    again = client.post(f"/transfers/{job.public_id}/retry/")
    assert again.status_code == 400 and "This job has finished" in again.content.decode()
