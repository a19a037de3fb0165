"""The conflicts page: the team's queue side by side, one-click resolutions with and without htmx."""

from __future__ import annotations

from accounts.models import AuditEvent
from memory import store
from memory.models import Note, NoteLink
from tests.mcp_gateway.state import db_state, save

URL = "/conflicts/"
RESOLVE = "/conflicts/resolve/"


def contradiction(cast, *, project="payments", user=None):
    a = save(cast, "Tokens are opaque", "Sessions use opaque tokens.", project=project, user=user)
    b = save(cast, "Tokens are JWTs", "Sessions use JWTs.", project=project, user=user)
    store.relate_notes(cast.principal(user or cast.member), a, b, "contradicts")
    return a, b


def test_the_queue_shows_both_sides_with_resolution_buttons(as_user, cast):
    a, b = contradiction(cast)
    lone = save(cast, "Cache TTL", "The cache keeps entries 5 minutes.", status="disputed")
    html = as_user(cast.member, cast.acme).get(URL).content.decode()
    assert "2 open conflicts." in html
    for text in ("Tokens are opaque", "Sessions use opaque tokens.", "Tokens are JWTs", "Sessions use JWTs."):
        assert text in html
    assert a in html and b in html and lone in html
    assert "mia@acme.test via pytest" in html
    assert '<th scope="col">A</th>' in html and '<th scope="row">Status</th>' in html
    for label in ("A supersedes B", "B supersedes A", "Both true", "A is historical", "B is historical"):
        assert f">{label}</button>" in html
    assert ">Keep it (not disputed)</button>" in html
    assert f'hx-post="{RESOLVE}"' in html and 'href="/conflicts/" aria-current="page"' in html


def test_resolving_without_script_redirects_with_a_message(as_user, cast):
    a, b = contradiction(cast)
    client = as_user(cast.member, cast.acme)
    response = client.post(
        RESOLVE, {"a": a, "b": b, "resolution": "a_supersedes_b", "a_version": 1, "b_version": 1}
    )
    assert response.status_code == 302 and response["Location"] == URL
    assert Note.objects.get(public_id=b).status == "superseded" and not NoteLink.objects.exists()
    page = client.get(URL).content.decode()
    assert "Resolved: “Tokens are opaque” now supersedes “Tokens are JWTs”." in page
    assert "No open conflicts." in page
    event = AuditEvent.objects.get(action="conflict.resolved")
    assert (event.actor, event.auth_method, event.client) == (cast.member, "session", "web")


def test_htmx_swaps_the_resolved_conflict(as_user, cast):
    a = save(cast, "Cache TTL", "The cache keeps entries 5 minutes.", status="disputed")
    response = as_user(cast.member, cast.acme).post(
        RESOLVE, {"a": a, "resolution": "a_historical", "a_version": 1}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert response.status_code == 200 and "<article" in html and "<html" not in html
    assert "Resolved: “Cache TTL” is historical." in html
    assert Note.objects.get(public_id=a).status == "historical"


def test_a_stale_page_gets_the_version_conflict_and_changes_nothing(as_user, cast):
    a, b = contradiction(cast)
    store.update_note(cast.principal(cast.owner), a, body="Sessions use opaque tokens, 30 minutes.")
    before = db_state()
    client = as_user(cast.member, cast.acme)
    form = {"a": a, "b": b, "resolution": "both_true", "a_version": 1, "b_version": 1, "project": "payments"}
    response = client.post(RESOLVE, form)
    assert response.status_code == 302 and response["Location"] == f"{URL}?project=payments"
    assert db_state() == before
    assert "is at version 2, not the a_version 1" in client.get(response["Location"]).content.decode()
    htmx = client.post(RESOLVE, form, HTTP_HX_REQUEST="true").content.decode()
    assert "is at version 2" in htmx and "Reload the conflicts" in htmx


def test_bad_input_is_a_message_not_a_500(as_user, cast):
    a, b = contradiction(cast)
    client = as_user(cast.member, cast.acme)
    before = db_state()
    for form in (
        {"a": a, "b": b, "resolution": "a_wins"},
        {"a": a, "b": b, "resolution": "both_true", "a_version": "x"},
        {"b": b, "resolution": "both_true"},
        {"a": a, "resolution": "a_supersedes_b"},
    ):
        response = client.post(RESOLVE, form, follow=True)
        assert response.status_code == 200
        assert 'class="message error"' in response.content.decode()
    assert db_state() == before
    assert client.get(URL, {"offset": "-3"}).status_code == 200


def test_a_viewer_reads_the_queue_but_cannot_resolve(as_user, cast):
    a, b = contradiction(cast)
    client = as_user(cast.viewer, cast.acme)
    html = client.get(URL).content.decode()
    assert "Tokens are opaque" in html and "A supersedes B" not in html
    assert "resolving them needs a member role" in html
    before = db_state()
    assert client.post(RESOLVE, {"a": a, "b": b, "resolution": "both_true"}).status_code == 403
    assert db_state() == before


def test_an_outsider_sees_nothing_of_other_teams(as_user, cast):
    a, b = contradiction(cast)
    theirs = contradiction(cast, project="lab", user=cast.outsider)
    client = as_user(cast.outsider, cast.globex)
    html = client.get(URL).content.decode()
    assert theirs[0] in html and a not in html and "Tokens are opaque" in html  # their own pair only
    assert client.get(URL, {"project": "payments"}).status_code == 404
    before = db_state()
    assert client.post(RESOLVE, {"a": a, "b": b, "resolution": "both_true"}).status_code == 404
    assert db_state() == before


def test_the_project_filter_and_paging(as_user, cast):
    for _ in range(26):
        save(cast, "Doubt", "Not sure.", status="disputed")
    contradiction(cast, project="website")
    client = as_user(cast.member, cast.acme)
    first = client.get(URL).content.decode()
    assert "27 open conflicts." in first and first.count("<article") == 25
    assert 'href="/conflicts/?offset=25">More conflicts' in first
    assert client.get(URL, {"offset": 25}).content.decode().count("<article") == 2
    website = client.get(URL, {"project": "website"}).content.decode()
    assert "1 open conflict." in website and "Tokens are JWTs" in website


def test_anonymous_visitors_are_sent_to_sign_in(client):
    response = client.get(URL)
    assert response.status_code == 302 and response["Location"].startswith("/login/")
    assert client.post(RESOLVE, {}).status_code == 302
