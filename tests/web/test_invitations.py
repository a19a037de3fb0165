from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import actions
from accounts.models import AuditEvent, Invitation, Membership, Role, User
from tests.web.conftest import link_in


@pytest.fixture
def room(cast):
    """Acme on the developer plan is full (3 of 3); these tests need room for newcomers."""
    cast.plan.max_members = 10
    cast.plan.save()
    actions.mark_email_verified(cast.owner, cast.owner.email)
    return cast


def _invite(client, email="nina@example.test", role="member"):
    return client.post("/teams/members/invite/", {"email": email, "role": role})


def test_an_unverified_owner_cannot_invite(as_user, cast):
    cast.plan.max_members = 10
    cast.plan.save()
    client = as_user(cast.owner, cast.acme)
    assert "Confirm your email address first" in client.get("/teams/members/").content.decode()
    response = _invite(client)
    assert response.status_code == 403
    assert "Verify your email address" in response.content.decode()
    assert not Invitation.objects.exists()


def test_invite_mails_a_single_use_link_and_stores_only_a_digest(as_user, room, mailoutbox):
    client = as_user(room.owner, room.acme)
    assert _invite(client, "Nina@Example.test", "viewer")["Location"] == "/teams/members/"
    invitation = Invitation.objects.get()
    assert (invitation.email, invitation.role, invitation.team_id) == (
        "nina@example.test",
        "viewer",
        room.acme.pk,
    )
    link = link_in(mailoutbox[0].body)
    assert mailoutbox[0].to == ["nina@example.test"]
    token = link.removeprefix("/teams/join/").rstrip("/")
    secret = token.rsplit(":", 2)[0]
    assert invitation.digest == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in str(list(Invitation.objects.values()))
    event = AuditEvent.objects.get(action="invitation.created")
    assert (event.team_id, event.actor_id, event.detail["role"]) == (room.acme.pk, room.owner.pk, "viewer")
    assert "nina@example.test" in client.get("/teams/members/").content.decode()  # pending list


def test_the_member_cap_refuses_invitations_clearly(as_user, cast):
    actions.mark_email_verified(cast.owner, cast.owner.email)
    response = _invite(as_user(cast.owner, cast.acme))  # acme has 3 of 3 members
    assert response.status_code == 402  # the REST API's status for a plan limit
    assert "allows 3 members" in response.content.decode()
    assert not Invitation.objects.exists()


def test_pending_invitations_count_against_the_cap(as_user, room):
    room.plan.max_members = 4
    room.plan.save()
    client = as_user(room.owner, room.acme)
    _invite(client, "one@example.test")
    assert _invite(client, "two@example.test").status_code == 402
    assert _invite(client, "one@example.test")["Location"] == "/teams/members/"  # a re-send is fine
    assert Invitation.objects.pending().count() == 1


def test_sign_up_from_the_link_joins_the_team_once(client, as_user, room, mailoutbox):
    _invite(as_user(room.owner, room.acme), role="viewer")
    link = link_in(mailoutbox[0].body)
    client.logout()

    page = client.get(link)
    assert page.status_code == 200
    assert "Join Acme" in page.content.decode() and "nina@example.test" in page.content.decode()
    response = client.post(link, {"name": "Nina", "password": "plum tree harbour"})
    assert response["Location"] == "/"
    nina = User.objects.get(email="nina@example.test")
    assert nina.email_verified
    assert Membership.objects.get(team=room.acme, user=nina).role == Role.VIEWER
    assert "Payments API" in client.get("/").content.decode()
    assert AuditEvent.objects.filter(action="invitation.accepted", actor=nina).count() == 1

    client.logout()
    again = client.get(link)
    assert again.status_code == 400 and "used already" in again.content.decode()


def test_a_signed_in_invitee_accepts(client, as_user, room, mailoutbox):
    actions.mark_email_verified(room.outsider, room.outsider.email)
    _invite(as_user(room.owner, room.acme), "oscar@globex.test", "member")
    link = link_in(mailoutbox[0].body)
    client.logout()
    oscar = as_user(room.outsider, room.globex)
    assert oscar.post(link)["Location"] == "/"
    assert Membership.objects.get(team=room.acme, user=room.outsider).role == Role.MEMBER
    assert "Payments API" in oscar.get("/").content.decode()  # the session moved to acme


def test_the_wrong_or_unverified_account_cannot_accept(client, as_user, room, mailoutbox):
    _invite(as_user(room.owner, room.acme), "oscar@globex.test")
    link = link_in(mailoutbox[0].body)
    client.logout()
    mia = as_user(room.member, room.acme)
    page = mia.get(link)
    assert "you are signed in as mia@acme.test" in page.content.decode()
    assert mia.post(link).status_code == 400
    mia.logout()
    oscar = as_user(room.outsider, room.globex)  # the right address, not yet confirmed
    refused = oscar.post(link)
    assert refused.status_code == 400 and "Verify your email address" in refused.content.decode()
    assert not Membership.objects.filter(team=room.acme, user=room.outsider).exists()


def test_revoked_expired_and_forged_links_do_not_work(client, as_user, room, mailoutbox):
    owner = as_user(room.owner, room.acme)
    _invite(owner, "a@example.test")
    _invite(owner, "b@example.test")
    revoked_link, expired_link = (link_in(m.body) for m in mailoutbox)
    first = Invitation.objects.get(email="a@example.test")
    assert owner.post(f"/teams/invitations/{first.public_id}/revoke/")["Location"] == "/teams/members/"
    Invitation.objects.filter(email="b@example.test").update(expires_at=timezone.now() - timedelta(minutes=1))
    owner.logout()
    assert "withdrawn" in client.get(revoked_link).content.decode()
    assert "expired" in client.get(expired_link).content.decode()
    assert client.post(expired_link, {"password": "plum tree harbour"}).status_code == 400
    assert client.get("/teams/join/not-a-token/").status_code == 400
    assert client.get(revoked_link[:-4] + "xyz/").status_code == 400
    assert not User.objects.filter(email__in=["a@example.test", "b@example.test"]).exists()


def test_a_re_sent_invitation_replaces_the_old_link(client, as_user, room, mailoutbox):
    owner = as_user(room.owner, room.acme)
    _invite(owner)
    _invite(owner)
    old, new = (link_in(m.body) for m in mailoutbox)
    owner.logout()
    assert client.get(old).status_code == 400
    assert client.get(new).status_code == 200


def test_the_cap_is_checked_again_on_acceptance(client, as_user, room, mailoutbox):
    _invite(as_user(room.owner, room.acme))
    link = link_in(mailoutbox[0].body)
    room.plan.max_members = 3
    room.plan.save()
    client.logout()
    response = client.post(link, {"name": "Nina", "password": "plum tree harbour"})
    assert response.status_code == 400
    assert "allows 3 members" in response.content.decode()
    assert not User.objects.filter(email="nina@example.test").exists()  # nothing half-made


def test_invitation_management_is_scoped(as_user, room):
    owner = as_user(room.owner, room.acme)
    _invite(owner)
    invitation = Invitation.objects.get()
    owner.logout()
    outsider = as_user(room.outsider, room.globex)
    assert outsider.post(f"/teams/invitations/{invitation.public_id}/revoke/").status_code == 404
    outsider.logout()
    viewer = as_user(room.viewer, room.acme)
    assert viewer.post(f"/teams/invitations/{invitation.public_id}/revoke/").status_code == 403
    invitation.refresh_from_db()
    assert invitation.state == "pending"


def test_only_owners_may_invite_owners(as_user, room):
    Membership.objects.filter(team=room.acme, user=room.member).update(role=Role.ADMIN)
    actions.mark_email_verified(room.member, room.member.email)
    admin = as_user(room.member, room.acme)
    assert _invite(admin, role="owner").status_code == 400  # not among an admin's choices
    assert not Invitation.objects.exists()


def test_invite_form_errors(as_user, room):
    client = as_user(room.owner, room.acme)
    assert _invite(client, "not-an-address").status_code == 400
    assert _invite(client, "mia@acme.test").status_code == 400  # a member already
    assert _invite(client, "z@example.test", "emperor").status_code == 400
    assert not Invitation.objects.exists()
