"""The store's account functions: teams, display names, members and sign-up, screened and audited."""

from __future__ import annotations

import pytest

from accounts.errors import Forbidden, NotFound, Screened
from accounts.models import AuditEvent, Membership, Team, User
from accounts.principal import principal_for_account
from memory import store
from tests.safety import harness

SECRET = "sk_live_51HxYzAbCdEfGhIjKlMnOpQr"


def test_a_team_name_holding_a_secret_is_refused_and_never_becomes_a_slug(cast):
    account = principal_for_account(cast.member)
    teams_before = Team.objects.count()
    with pytest.raises(Screened):
        store.create_team(account, f"Team {SECRET}")
    with pytest.raises(Screened):
        store.create_team(account, SECRET)
    with pytest.raises(Screened):
        store.rename_team(cast.principal(cast.owner), SECRET)
    assert Team.objects.count() == teams_before
    assert not Team.objects.filter(slug__icontains="sk-live").exists()
    assert harness.leaks([harness.Planted("stripe_key", "raw", SECRET)]) == []
    # The account principal's refusals are audited without a team, naming the person.
    refusals = AuditEvent.objects.filter(action="write.screened", actor=cast.member)
    assert refusals.count() == 2 and {event.team_id for event in refusals} == {None}


def test_a_new_team_is_owned_by_its_creator_and_audited(cast):
    team = store.create_team(principal_for_account(cast.member), "  Mia's   lab ")
    assert (team["name"], team["slug"], team["role"]) == ("Mia's lab", "mias-lab", "owner")
    assert Membership.objects.get(team_id=team["id"], user=cast.member).role == "owner"
    assert AuditEvent.objects.filter(action="team.created", team_id=team["id"]).exists()
    assert [t["slug"] for t in store.list_teams(principal_for_account(cast.member))["teams"]] == [
        "acme",
        "mias-lab",
    ]


def test_sign_up_screens_the_display_name_and_the_team_name_derived_from_the_address(db):
    anonymous = principal_for_account()
    with pytest.raises(Screened):
        store.sign_up(anonymous, "new@example.com", "correct horse battery", name=f"Ann {SECRET}")
    with pytest.raises(Screened):
        store.sign_up(anonymous, f"{SECRET}@example.com", "correct horse battery")
    assert not User.objects.exists() and not Team.objects.exists()
    made = store.sign_up(anonymous, "ann@example.com", "correct horse battery", name="Ann Lee")
    assert made["user"].name == "Ann Lee"
    assert Team.objects.get(pk=made["team_id"]).name == "Ann's team"


def test_the_display_name_is_screened_as_sent_and_stored(cast):
    with pytest.raises(Screened):
        store.update_profile(principal_for_account(cast.member), SECRET)
    store.update_profile(principal_for_account(cast.member), "  Mia   M. ")
    cast.member.refresh_from_db()
    assert cast.member.name == "Mia M."
    with pytest.raises(Forbidden):
        store.update_profile(principal_for_account(), "Nobody")


def test_members_and_viewers_cannot_manage_members(cast):
    for user in (cast.member, cast.viewer):
        principal = cast.principal(user)
        with pytest.raises(Forbidden):
            store.invite_member(principal, "new@example.com", "member")
        with pytest.raises(Forbidden):
            store.remove_member(principal, cast.owner.email)
        with pytest.raises(Forbidden):
            store.list_invitations(principal)
    assert {m["email"] for m in store.list_members(cast.principal(cast.viewer))["members"]} == {
        cast.owner.email,
        cast.member.email,
        cast.viewer.email,
    }


def test_another_teams_member_is_not_found(cast):
    with pytest.raises(NotFound):
        store.remove_member(cast.principal(cast.owner), cast.outsider.email)
    with pytest.raises(NotFound):
        store.leave_team(principal_for_account(cast.member), cast.globex.pk)
    assert Membership.objects.filter(user=cast.outsider).exists()


def test_a_viewer_leaves_through_the_account_principal(cast):
    left = store.leave_team(principal_for_account(cast.viewer), cast.acme.pk)
    assert left["team_name"] == "Acme"
    assert not Membership.objects.filter(team=cast.acme, user=cast.viewer).exists()
