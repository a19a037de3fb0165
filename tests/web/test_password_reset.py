from __future__ import annotations

from accounts.models import AuditEvent
from knownbase.celery import finish_unqueued
from tests.celery_broker import broker
from tests.live_mcp import free_port
from tests.web.conftest import link_in

NEW = "lantern orchard 42"


def _request(client, email):
    return client.post("/password/reset/", {"email": email})


def test_reset_mails_a_link_to_an_existing_address(client, cast, mailoutbox):
    response = _request(client, "Olivia@Acme.test")
    assert response["Location"] == "/password/reset/sent/"
    assert [m.to for m in mailoutbox] == [["olivia@acme.test"]]
    assert link_in(mailoutbox[0].body).startswith("/password/reset/")


def test_reset_does_not_reveal_whether_an_address_exists(client, cast, mailoutbox):
    known = _request(client, "olivia@acme.test")
    unknown = _request(client, "nobody@acme.test")
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert client.get(known["Location"]).content == client.get(unknown["Location"]).content
    assert len(mailoutbox) == 1


def test_reset_link_sets_a_new_password_once(client, cast, mailoutbox):
    _request(client, "olivia@acme.test")
    link = link_in(mailoutbox[0].body)

    first = client.get(link)
    # The token leaves the URL before the form is shown (no Referer leak).
    assert first.status_code == 302 and first["Location"].endswith("/set-password/")
    form = client.get(first["Location"])
    assert form.status_code == 200 and 'name="new_password1"' in form.content.decode()

    done = client.post(first["Location"], {"new_password1": NEW, "new_password2": NEW})
    assert done["Location"] == "/login/"
    cast.owner.refresh_from_db()
    assert cast.owner.check_password(NEW)
    assert cast.owner.email_verified  # the link proved the mailbox
    assert AuditEvent.objects.get(action="user.password_changed").detail == {"reason": "reset"}

    again = client.get(link)
    assert again.status_code == 400
    assert "does not work" in again.content.decode()


def test_reset_form_errors_and_bad_links_never_500(client, cast, mailoutbox):
    assert client.post("/password/reset/", {"email": "not an address"}).status_code == 400
    assert client.get("/password/reset/Zm9v/garbage-token/").status_code == 400
    assert client.get("/password/reset/!!!/garbage/").status_code == 404  # not the shape of a link
    assert client.get("/password/reset/MQ/set-password/").status_code == 400  # no token in the session
    _request(client, "olivia@acme.test")
    link = link_in(mailoutbox[0].body)
    set_page = client.get(link)["Location"]
    mismatch = client.post(set_page, {"new_password1": NEW, "new_password2": "something else"})
    assert mismatch.status_code == 400
    cast.owner.refresh_from_db()
    assert cast.owner.check_password("correct horse battery")


def test_reset_requests_are_limited(client, cast, mailoutbox):
    for _ in range(3):
        assert _request(client, "olivia@acme.test").status_code == 302
    refused = _request(client, "olivia@acme.test")
    assert refused.status_code == 429
    assert "Too many reset requests" in refused.content.decode()
    assert len(mailoutbox) == 3


def test_without_a_broker_both_answers_match_and_the_mail_still_goes(
    client, cast, transactional_db, mailoutbox
):
    # The mail task runs in a background thread when the broker is unreachable: the request does the
    # same work for both addresses, and the existing one still gets its link.
    with broker(f"redis://127.0.0.1:{free_port()}/0"):  # nothing listens on a free port
        known = _request(client, "olivia@acme.test")
        unknown = _request(client, "nobody@acme.test")
    assert finish_unqueued(60)
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert known.status_code == 302
    assert [m.to for m in mailoutbox] == [["olivia@acme.test"]]
