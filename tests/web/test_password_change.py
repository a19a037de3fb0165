from __future__ import annotations

from accounts.models import AuditEvent

OLD = "correct horse battery"


def test_password_change_keeps_this_session_and_is_audited(client, cast):
    client.force_login(cast.owner)
    response = client.post(
        "/password/change/",
        {"old_password": OLD, "new_password1": "lantern orchard 42", "new_password2": "lantern orchard 42"},
    )
    assert response.status_code == 302
    cast.owner.refresh_from_db()
    assert cast.owner.check_password("lantern orchard 42")
    assert client.get("/").status_code == 200  # still signed in
    event = AuditEvent.objects.get(action="user.password_changed")
    assert (event.actor_id, event.detail) == (cast.owner.pk, {"reason": "change"})


def test_wrong_old_password_or_mismatch_is_a_form_error(client, cast):
    client.force_login(cast.owner)
    wrong = client.post(
        "/password/change/",
        {
            "old_password": "not it at all",
            "new_password1": "lantern orchard 42",
            "new_password2": "lantern orchard 42",
        },
    )
    assert wrong.status_code == 400
    assert "incorrectly" in wrong.content.decode()
    mismatch = client.post(
        "/password/change/",
        {"old_password": OLD, "new_password1": "lantern orchard 42", "new_password2": "other"},
    )
    assert mismatch.status_code == 400
    weak = client.post(
        "/password/change/", {"old_password": OLD, "new_password1": "abc", "new_password2": "abc"}
    )
    assert weak.status_code == 400
    cast.owner.refresh_from_db()
    assert cast.owner.check_password(OLD)
    assert not AuditEvent.objects.filter(action="user.password_changed").exists()


def test_other_sessions_end_after_a_change(client, cast, django_user_model):
    from django.test import Client

    other = Client()
    other.force_login(cast.owner)
    client.force_login(cast.owner)
    client.post(
        "/password/change/",
        {"old_password": OLD, "new_password1": "lantern orchard 42", "new_password2": "lantern orchard 42"},
    )
    assert other.get("/keys/").status_code == 302  # back to the login page
