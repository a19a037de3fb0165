from __future__ import annotations

from accounts import actions
from accounts.models import ApiKey, AuditEvent, Membership, Role


def _role(cast, user):
    return Membership.objects.get(team=cast.acme, user=user).role


def test_every_member_sees_the_list_but_only_managers_get_the_forms(as_user, cast):
    owner_html = as_user(cast.owner, cast.acme).get("/teams/members/").content.decode()
    for email in ("olivia@acme.test", "mia@acme.test", "victor@acme.test"):
        assert email in owner_html
    assert 'action="/teams/members/role/"' in owner_html
    assert "oscar@globex.test" not in owner_html
    for user in (cast.member, cast.viewer):
        html = as_user(user, cast.acme).get("/teams/members/").content.decode()
        assert "olivia@acme.test" in html
        assert 'action="/teams/members/role/"' not in html
        assert 'action="/teams/members/invite/"' not in html


def test_owner_changes_a_role_through_the_audited_action(as_user, cast):
    client = as_user(cast.owner, cast.acme)
    response = client.post("/teams/members/role/", {"email": "MIA@acme.test", "role": "admin"})
    assert response["Location"] == "/teams/members/"
    assert _role(cast, cast.member) == Role.ADMIN
    event = AuditEvent.objects.get(action="member.role_changed")
    assert (event.actor_id, event.detail) == (cast.owner.pk, {"old": "member", "new": "admin"})


def test_the_last_owner_cannot_be_demoted(as_user, cast):
    Membership.objects.filter(team=cast.acme, user=cast.member).update(role=Role.ADMIN)
    client = as_user(cast.member, cast.acme)  # an admin
    client.post("/teams/members/role/", {"email": "olivia@acme.test", "role": "member"})
    assert _role(cast, cast.owner) == Role.OWNER
    owner = as_user(cast.owner, cast.acme)
    owner.post("/teams/members/role/", {"email": "olivia@acme.test", "role": "member"})
    assert _role(cast, cast.owner) == Role.OWNER


def test_an_admin_cannot_hand_out_or_take_away_ownership(as_user, cast):
    Membership.objects.filter(team=cast.acme, user=cast.member).update(role=Role.ADMIN)
    client = as_user(cast.member, cast.acme)
    response = client.post(
        "/teams/members/role/", {"email": "victor@acme.test", "role": "owner"}, follow=True
    )
    assert "Only an owner" in response.content.decode()
    assert _role(cast, cast.viewer) == Role.VIEWER
    client.post("/teams/members/remove/", {"email": "olivia@acme.test", "confirmed": "yes"})
    assert _role(cast, cast.owner) == Role.OWNER


def test_viewers_and_members_cannot_manage_members(as_user, cast):
    for user in (cast.viewer, cast.member):
        client = as_user(user, cast.acme)
        assert (
            client.post("/teams/members/role/", {"email": "victor@acme.test", "role": "admin"}).status_code
            == 403
        )
        assert (
            client.post(
                "/teams/members/remove/", {"email": "victor@acme.test", "confirmed": "yes"}
            ).status_code
            == 403
        )
        assert (
            client.post("/teams/members/invite/", {"email": "x@acme.test", "role": "member"}).status_code
            == 403
        )
        client.logout()
    assert Membership.objects.filter(team=cast.acme).count() == 3
    assert _role(cast, cast.viewer) == Role.VIEWER


def test_the_outsider_cannot_reach_acme_members(as_user, cast):
    client = as_user(cast.outsider, cast.globex)
    assert (
        client.post("/teams/members/role/", {"email": "mia@acme.test", "role": "viewer"}).status_code == 404
    )
    assert (
        client.post("/teams/members/remove/", {"email": "mia@acme.test", "confirmed": "yes"}).status_code
        == 404
    )
    assert (
        client.post("/teams/members/remove/", {"email": "not an address", "confirmed": "yes"}).status_code
        == 404
    )
    assert _role(cast, cast.member) == Role.MEMBER


def test_bad_role_is_refused_clearly(as_user, cast):
    client = as_user(cast.owner, cast.acme)
    response = client.post("/teams/members/role/", {"email": "mia@acme.test", "role": "superuser"})
    assert response.status_code == 404  # the form did not validate: nothing is named
    assert _role(cast, cast.member) == Role.MEMBER


def test_removing_a_member_revokes_their_keys_and_is_audited(as_user, cast):
    key = cast.key(cast.member)
    client = as_user(cast.owner, cast.acme)
    assert (
        client.post("/teams/members/remove/", {"email": "mia@acme.test", "confirmed": "yes"})["Location"]
        == "/teams/members/"
    )
    assert not Membership.objects.filter(team=cast.acme, user=cast.member).exists()
    assert ApiKey.objects.get(user=cast.member).revoked_at is not None
    assert ApiKey.authenticate(key) is None
    assert AuditEvent.objects.get(action="member.removed").object_id == "mia@acme.test"


def test_the_owner_cannot_remove_themselves_there(as_user, cast):
    client = as_user(cast.owner, cast.acme)
    client.post("/teams/members/remove/", {"email": "olivia@acme.test", "confirmed": "yes"})
    assert _role(cast, cast.owner) == Role.OWNER


def test_a_member_leaves(as_user, cast):
    client = as_user(cast.member, cast.acme)
    assert "Leave Acme?" in client.get("/teams/leave/").content.decode()
    assert client.post("/teams/leave/")["Location"] == "/teams/"
    assert not Membership.objects.filter(team=cast.acme, user=cast.member).exists()
    event = AuditEvent.objects.get(action="member.left")
    assert (event.team_id, event.actor_id) == (cast.acme.pk, cast.member.pk)


def test_the_last_owner_cannot_leave_until_another_owner_exists(as_user, cast):
    client = as_user(cast.owner, cast.acme)
    response = client.post("/teams/leave/", follow=True)
    assert "at least one owner" in response.content.decode()
    assert _role(cast, cast.owner) == Role.OWNER
    actions.change_role(Membership.objects.get(team=cast.acme, user=cast.member), Role.OWNER)
    assert client.post("/teams/leave/")["Location"] == "/teams/"
    assert not Membership.objects.filter(team=cast.acme, user=cast.owner).exists()
