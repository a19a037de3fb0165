"""The needs-review flag in the web: the note page shows a note whose code changed, with its commit;
"Still true" clears it, as an edit does; the edit form binds a note to code. Also in a real browser."""

from __future__ import annotations

import pytest

from memory import store
from memory.models import Note
from tests.web.browser import screenshot

COMMIT = "c0ffee12"


def flagged_note(cast) -> str:
    principal = cast.principal(cast.member)
    note_id = store.create_note(
        principal, "payments", "Invoice rounding", "Totals round half-even per line.", paths=["billing/**"]
    )["note"]["id"]
    store.report_code_change(principal, "payments", COMMIT, ["billing/invoice.py"])
    return note_id


def test_the_page_shows_the_flag_and_still_true_clears_it(as_user, cast):
    note_id = flagged_note(cast)
    client = as_user(cast.member, cast.acme)
    html = client.get(f"/projects/payments/notes/{note_id}/").content.decode()
    assert "Needs review" in html and COMMIT in html and "billing/**" in html
    assert f"/projects/payments/notes/{note_id}/still-true/" in html
    assert client.get(f"/projects/payments/notes/{note_id}/still-true/").status_code == 200
    response = client.post(f"/projects/payments/notes/{note_id}/still-true/")
    assert response.status_code == 302
    assert Note.objects.get(public_id=note_id).review_flagged_at is None
    assert "Needs review" not in client.get(f"/projects/payments/notes/{note_id}/").content.decode()


def test_the_dashboard_lists_notes_that_need_review(as_user, cast):
    note_id = flagged_note(cast)
    html = as_user(cast.viewer, cast.acme).get("/").content.decode()
    assert "Needs review" in html and COMMIT in html
    assert f"/projects/payments/notes/{note_id}/" in html
    store.confirm_note(cast.principal(cast.member), note_id)
    assert "Needs review" not in as_user(cast.viewer, cast.acme).get("/").content.decode()


def test_viewers_see_the_flag_but_cannot_clear_it(as_user, cast):
    note_id = flagged_note(cast)
    client = as_user(cast.viewer, cast.acme)
    html = client.get(f"/projects/payments/notes/{note_id}/").content.decode()
    assert "Needs review" in html and "still-true" not in html
    assert client.post(f"/projects/payments/notes/{note_id}/still-true/").status_code == 403
    assert Note.objects.get(public_id=note_id).review_flagged_at is not None


def test_the_edit_form_binds_paths_and_an_edit_clears_the_flag(as_user, cast):
    note_id = flagged_note(cast)
    client = as_user(cast.member, cast.acme)
    form = client.get(f"/projects/payments/notes/{note_id}/edit/").content.decode()
    assert "billing/**" in form
    response = client.post(
        f"/projects/payments/notes/{note_id}/edit/",
        {
            "title": "Invoice rounding",
            "body": "Totals round half-up per line since the change.",
            "type": "note",
            "status": "current",
            "tags": "",
            "paths": "billing/**\r\n./api/views/*.py\r\n",
            "importance": "0.5",
            "visibility": "team",
            "expected_version": "1",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    note = Note.objects.get(public_id=note_id)
    assert note.paths == ["billing/**", "api/views/*.py"] and note.review_flagged_at is None


@pytest.mark.browser
@pytest.mark.timeout(120)
def test_a_person_confirms_a_flagged_note_in_the_browser(browser_page, site_url, cast):
    note_id = flagged_note(cast)
    page = browser_page
    page.goto(f"/login/?next=/projects/payments/notes/{note_id}/")
    page.get_by_label("Email").fill("mia@acme.test")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("heading", name="Invoice rounding").wait_for()
    flag = page.locator("#needs-review")
    assert COMMIT in flag.inner_text()
    screenshot(page, "23-needs-review")
    flag.get_by_role("link", name="Still true").click()
    page.get_by_role("button", name="Still true").click()
    page.get_by_role("heading", name="Invoice rounding").wait_for()
    assert page.locator("#needs-review").count() == 0
    assert Note.objects.get(public_id=note_id).review_flagged_at is None


def test_the_project_page_filters_by_code_path(as_user, cast):
    note_id = flagged_note(cast)
    other = store.create_note(cast.principal(cast.member), "payments", "Deploys", "Deploys run on Tuesdays.")
    client = as_user(cast.member, cast.acme)
    html = client.get("/projects/payments/", {"path": "billing/tax/eu.py"}).content.decode()
    assert note_id in html and other["note"]["id"] not in html
    refused = client.get("/projects/payments/", {"path": "../etc"}).content.decode()
    assert "..'" in refused or "contains" in refused
