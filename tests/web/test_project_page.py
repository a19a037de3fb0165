"""The note browser at /projects/<slug>/: filters, search with its mode, sort, pages, htmx fragments
and bulk actions through the store."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from accounts.models import AuditEvent
from memory import store
from memory.models import Note, NoteRevision
from tests.mcp_gateway.state import save

URL = "/projects/payments/"


def _html(client, url=URL, expect=200, **params) -> str:
    response = client.get(url, params)
    assert response.status_code == expect, response.content.decode()[:2000]
    return response.content.decode()


@pytest.fixture
def notes(cast):
    owner = cast.principal(cast.owner).with_client("claude-code")
    made = {
        "decision": save(
            cast,
            "Use Postgres",
            "We use Postgres for everything.",
            type="decision",
            tags=["db"],
            importance=0.9,
        ),
        "fact": save(cast, "Port", "The API listens on 8080.", type="fact", importance=0.2),
        "owners": store.create_note(owner, "payments", "Owner's note", "Written by the owner.", tags=["ops"])[
            "note"
        ]["id"],
        "historical": save(cast, "Old port", "It used to be 8000.", type="fact", status="historical"),
    }
    t0 = datetime(2026, 3, 1, tzinfo=UTC)
    for offset, name in enumerate(["decision", "fact", "owners", "historical"]):
        Note.objects.filter(public_id=made[name]).update(updated_at=t0 + timedelta(days=offset))
    return made


def test_anonymous_goes_to_login(client, cast):
    response = client.get(URL)
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_outsider_and_unknown_projects_are_404(as_user, cast):
    client = as_user(cast.outsider)
    assert client.get(URL).status_code == 404
    assert client.get("/projects/no-such/").status_code == 404


def test_lists_the_projects_notes_with_links_to_the_note_page(as_user, cast, notes):
    html = _html(as_user(cast.viewer, cast.acme))
    for note_id in notes.values():
        assert f'href="/projects/payments/notes/{note_id}/"' in html
    assert "4 notes." in html
    # newest first by default
    assert html.index("Old port") < html.index("Owner&#x27;s note") < html.index("Use Postgres")


def test_the_page_leads_to_export_and_to_import_for_writers(as_user, cast):
    member = _html(as_user(cast.member, cast.acme))
    assert 'href="/projects/payments/export/"' in member and 'href="/projects/payments/import/"' in member
    viewer = _html(as_user(cast.viewer, cast.acme))
    assert 'href="/projects/payments/export/"' in viewer  # viewers may export what they can read
    assert 'href="/projects/payments/import/"' not in viewer


@pytest.mark.parametrize(
    ("params", "shown"),
    [
        ({"type": "fact"}, {"fact", "historical"}),
        ({"status": "historical"}, {"historical"}),
        ({"tag": "db"}, {"decision"}),
        ({"author": "olivia@acme.test"}, {"owners"}),
        ({"source": "claude-code"}, {"owners"}),
        ({"updated_after": "2026-03-02", "updated_before": "2026-03-03"}, {"fact", "owners"}),
    ],
)
def test_filters_really_filter(as_user, cast, notes, params, shown):
    html = _html(as_user(cast.member, cast.acme), **params)
    assert {name for name, note_id in notes.items() if f"/notes/{note_id}/" in html} == shown


def test_sort_by_importance(as_user, cast, notes):
    html = _html(as_user(cast.member, cast.acme), sort="-importance")
    assert html.index("Use Postgres") < html.index("Owner&#x27;s note") < html.index("Port<")


def test_deleted_notes_only_when_asked(as_user, cast, notes):
    store.delete_note(cast.principal(cast.member), notes["fact"])
    client = as_user(cast.member, cast.acme)
    assert f"/notes/{notes['fact']}/" not in _html(client)
    html = _html(client, deleted="on")
    assert f"/notes/{notes['fact']}/" in html and "deleted</span>" in html


def test_search_shows_the_mode_that_answered(as_user, cast, notes):
    html = _html(as_user(cast.viewer, cast.acme), q="Postgres", author="olivia@acme.test")
    assert "Use Postgres" in html and "Port<" not in html
    assert "search_mode: " in html
    mode = store.search_notes(cast.principal(cast.viewer), "Postgres", project="payments", semantic=True)
    assert f"search_mode: {mode['search_mode']}" in html
    assert "by relevance" in html
    assert "Search filters by type, status and tag only" in html  # the author filter is not applied


def test_search_honours_type_filter(as_user, cast, notes):
    html = _html(as_user(cast.viewer, cast.acme), q="port", type="decision")
    assert "Old port" not in html and "Port<" not in html


def test_pages_of_fifty_continue_with_a_cursor(as_user, cast):
    for n in range(55):
        save(cast, f"Bulk note {n:02d}", f"body {n}")
    client = as_user(cast.member, cast.acme)
    first = _html(client)
    assert "55 notes." in first and first.count('name="note"') == 50
    cursor = first.split('rel="next" href="?cursor=')[1].split('"')[0]
    second = client.get(URL + "?cursor=" + cursor).content.decode()
    assert second.count('name="note"') == 5 and "First page" in second


def test_bad_filters_are_form_errors_not_500(as_user, cast, notes):
    client = as_user(cast.member, cast.acme)
    assert "Select a valid choice" in _html(client, expect=400, type="nonsense")
    assert "Enter a valid date" in _html(client, expect=400, updated_after="yesterday")
    html = _html(client, expect=400, tag="not a tag!")
    assert "is not valid" in html
    assert "not a valid note-list cursor" in _html(client, expect=400, cursor="garbage")
    assert "before its start" in _html(
        client, expect=400, updated_after="2026-03-05", updated_before="2026-03-01"
    )


def test_htmx_requests_get_the_results_fragment(as_user, cast, notes):
    client = as_user(cast.member, cast.acme)
    response = client.get(URL, {"type": "decision"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="note-results"')
    assert "<html" not in html and "Use Postgres" in html
    restore = client.get(URL, HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true").content.decode()
    assert "<html" in restore
    full = _html(client)
    assert 'hx-get="/projects/payments/"' in full and 'hx-push-url="true"' in full


def test_viewers_get_no_bulk_controls_and_cannot_post(as_user, cast, notes):
    client = as_user(cast.viewer, cast.acme)
    assert 'name="note"' not in _html(client)
    before = list(Note.objects.values_list("version", "deleted_at"))
    response = client.post(URL + "bulk/", {"note": [notes["fact"]], "action": "delete", "confirm": "yes"})
    assert response.status_code == 403
    assert list(Note.objects.values_list("version", "deleted_at")) == before


def test_outsider_cannot_post_bulk_actions(as_user, cast, notes):
    response = as_user(cast.outsider).post(
        URL + "bulk/", {"note": [notes["fact"]], "action": "delete", "confirm": "yes"}
    )
    assert response.status_code == 404
    assert not Note.objects.filter(deleted_at__isnull=False).exists()


def test_bulk_action_asks_for_confirmation_first(as_user, cast, notes):
    client = as_user(cast.member, cast.acme)
    selection = [f"{notes['fact']}:1", f"{notes['decision']}:1"]
    response = client.post(URL + "bulk/", {"note": selection, "action": "delete", "reason": "stale"})
    html = response.content.decode()
    assert response.status_code == 200 and "Delete 2 notes?" in html
    assert 'name="confirm" value="yes"' in html and "Port" in html
    assert not Note.objects.filter(deleted_at__isnull=False).exists()


def test_bulk_delete_writes_through_the_store(as_user, cast, notes):
    client = as_user(cast.member, cast.acme)
    selection = [f"{notes['fact']}:1", f"{notes['decision']}:1"]
    response = client.post(
        URL + "bulk/",
        {
            "note": selection,
            "action": "delete",
            "reason": "stale",
            "confirm": "yes",
            "filters": "type=fact&cursor=x",
        },
        follow=True,
    )
    assert response.redirect_chain[0][0] == "/projects/payments/?type=fact"
    assert "2 notes deleted." in response.content.decode()
    deleted = Note.objects.filter(public_id__in=[notes["fact"], notes["decision"]])
    assert all(n.deleted_at and n.delete_reason == "stale" and n.version == 2 for n in deleted)
    events = AuditEvent.objects.filter(action="note.deleted")
    assert events.count() == 2 and {e.client for e in events} == {"web"}
    assert NoteRevision.objects.filter(note__in=deleted).count() == 2


def test_bulk_retag_and_a_stale_note_is_reported_not_overwritten(as_user, cast, notes):
    store.update_note(cast.principal(cast.owner), notes["fact"], body="Changed meanwhile.")
    client = as_user(cast.member, cast.acme)
    response = client.post(
        URL + "bulk/",
        {
            "note": [f"{notes['fact']}:1", f"{notes['decision']}:1"],
            "action": "retag",
            "add_tags": "infra, core",
            "remove_tags": "db",
            "confirm": "yes",
        },
        follow=True,
    )
    html = response.content.decode()
    assert "1 note retagged." in html
    assert "Not retagged: “Port”" in html and "version 2" in html
    assert Note.objects.get(public_id=notes["decision"]).tags == ["infra", "core"]
    assert Note.objects.get(public_id=notes["fact"]).tags == []


def test_bulk_mark_historical(as_user, cast, notes):
    client = as_user(cast.member, cast.acme)
    client.post(URL + "bulk/", {"note": [notes["decision"]], "action": "mark_historical", "confirm": "yes"})
    assert Note.objects.get(public_id=notes["decision"]).status == "historical"
    assert AuditEvent.objects.filter(action="note.updated", object_id=notes["decision"]).exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"action": "delete"}, "Select at least one note."),
        ({"note": ["x:one"], "action": "delete"}, "The selection is malformed"),
        ({"note": ["NOTE"], "action": "explode"}, "Select a valid choice"),
        ({"note": ["NOTE"], "action": "retag", "confirm": "yes"}, "`retag` needs `add_tags`"),
        ({"note": ["NOTE"], "action": "retag", "add_tags": "bad!tag", "confirm": "yes"}, "is not valid"),
    ],
)
def test_bad_bulk_input_is_a_form_error(as_user, cast, notes, data, message):
    data = {
        k: [notes["fact"] if v == "NOTE" else v for v in value] if isinstance(value, list) else value
        for k, value in data.items()
    }
    response = as_user(cast.member, cast.acme).post(URL + "bulk/", data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Note.objects.get(public_id=notes["fact"]).version == 1


def test_a_screened_tag_is_refused_with_nothing_written(as_user, cast, notes):
    response = as_user(cast.member, cast.acme).post(
        URL + "bulk/",
        {"note": [notes["fact"]], "action": "retag", "add_tags": "ghp_" + "a1B2" * 9, "confirm": "yes"},
    )
    assert response.status_code == 422
    assert Note.objects.get(public_id=notes["fact"]).version == 1


def test_the_browser_makes_a_bounded_number_of_queries(as_user, cast, django_assert_max_num_queries):
    for n in range(60):
        save(cast, f"Note {n}", f"body {n}", tags=["x"])
    client = as_user(cast.member, cast.acme)
    client.get(URL)
    with django_assert_max_num_queries(20):
        assert client.get(URL).status_code == 200


def test_a_search_that_matches_nothing_says_so(as_user, cast, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):  # embedded: nearest neighbours exist
        save(cast, "Use Postgres", "We store everything in PostgreSQL 16.")
    client = as_user(cast.member, cast.acme)
    html = _html(client, q="zzzznotfound")
    assert "Nothing in this project matches “zzzznotfound”." in html
    assert "best match" not in html and "Use Postgres" not in html
    assert "search_mode: vector" in html and "remove the type, status and tag filters" not in html
    assert "remove the type, status and tag filters" in _html(client, q="zzzznotfound", type="decision")
    assert "Nothing in this project matches" not in _html(client, q="Postgres")
