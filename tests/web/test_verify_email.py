from __future__ import annotations

import time

from django.core import signing

from accounts.models import AuditEvent
from accounts.tokens import email_verification_token
from tests.web.conftest import link_in


def test_the_emailed_link_confirms_the_address_on_post(client, cast, mailoutbox):
    client.force_login(cast.owner)
    assert client.post("/verify-email/")["Location"] == "/verify-email/"
    link = link_in(mailoutbox[0].body)

    page = client.get(link)  # a mail scanner fetching the link confirms nothing
    assert page.status_code == 200 and "Confirm olivia@acme.test" in page.content.decode()
    cast.owner.refresh_from_db()
    assert not cast.owner.email_verified

    assert client.post(link)["Location"] == "/"
    cast.owner.refresh_from_db()
    assert cast.owner.email_verified
    assert AuditEvent.objects.filter(action="user.email_verified", actor=cast.owner).count() == 1
    client.post(link)  # again: nothing new
    assert AuditEvent.objects.filter(action="user.email_verified").count() == 1
    assert "is confirmed" in client.get("/verify-email/").content.decode()


def test_the_link_works_signed_out(client, cast):
    link = f"/verify-email/{email_verification_token(cast.member.pk, cast.member.email)}/"
    assert client.post(link)["Location"] == "/login/"
    cast.member.refresh_from_db()
    assert cast.member.email_verified


def test_forged_expired_or_stale_links_are_refused(client, cast, monkeypatch):
    good = email_verification_token(cast.owner.pk, cast.owner.email)
    forged = good[:-3] + ("AAA" if not good.endswith("AAA") else "BBB")
    other_user = signing.TimestampSigner(salt="another purpose").sign_object(
        {"u": cast.owner.pk, "e": cast.owner.email}
    )
    changed_address = email_verification_token(cast.owner.pk, "old@acme.test")
    for token in (forged, other_user, changed_address, "garbage"):
        assert client.post(f"/verify-email/{token}/").status_code == 400
    # Signed four days ago: the link lived three.
    real_time = time.time
    monkeypatch.setattr(time, "time", lambda: real_time() - 4 * 86400)
    old = email_verification_token(cast.owner.pk, cast.owner.email)
    monkeypatch.undo()
    response = client.post(f"/verify-email/{old}/")
    assert response.status_code == 400
    cast.owner.refresh_from_db()
    assert not cast.owner.email_verified


def test_resending_is_limited(client, cast, mailoutbox):
    client.force_login(cast.owner)
    for _ in range(5):
        client.post("/verify-email/")
    assert client.post("/verify-email/").status_code == 429
    assert len(mailoutbox) == 5


def test_a_used_link_says_the_address_is_already_confirmed(client, cast):
    link = f"/verify-email/{email_verification_token(cast.member.pk, cast.member.email)}/"
    client.post(link)
    again = client.get(link).content.decode()
    assert "mia@acme.test is already confirmed" in again and "Confirm mia@acme.test</button>" not in again
