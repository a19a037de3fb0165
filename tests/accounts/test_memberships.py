"""Membership actions: the last owner stays, only owners grant ownership, invitations work once."""

from __future__ import annotations

import pytest

from accounts import actions
from accounts.errors import Forbidden, InvalidArgument
from accounts.models import ApiKey, Invitation, Membership, Role


def _membership(cast, user, team=None):
    return Membership.objects.get(team=team or cast.acme, user=user)


def test_the_last_owner_cannot_be_removed_or_leave(cast):
    owner = _membership(cast, cast.owner)
    with pytest.raises(InvalidArgument, match="at least one owner"):
        actions.remove_member(owner)
    with pytest.raises(InvalidArgument, match="at least one owner"):
        actions.leave_team(owner)
    assert Membership.objects.filter(pk=owner.pk).exists()


def test_with_a_second_owner_the_first_may_go(cast):
    actions.change_role(_membership(cast, cast.member), Role.OWNER)
    actions.leave_team(_membership(cast, cast.owner))
    with pytest.raises(InvalidArgument):
        actions.leave_team(_membership(cast, cast.member))  # now the last one
    assert list(
        Membership.objects.filter(team=cast.acme, role=Role.OWNER).values_list("user__email", flat=True)
    ) == ["mia@acme.test"]


def test_only_owners_grant_or_take_ownership(cast):
    admin = _membership(cast, cast.member)
    actions.change_role(admin, Role.ADMIN)
    as_admin = cast.principal(cast.member)
    with pytest.raises(Forbidden):
        actions.change_role(_membership(cast, cast.viewer), Role.OWNER, actor=as_admin)
    actions.change_role(_membership(cast, cast.viewer), Role.OWNER, actor=cast.principal(cast.owner))
    with pytest.raises(Forbidden):
        actions.remove_member(_membership(cast, cast.viewer), actor=as_admin)  # now an owner
    with pytest.raises(Forbidden):
        actions.create_invitation(
            cast.acme, "x@example.test", Role.OWNER, invited_by=cast.member, actor=as_admin
        )


def test_leaving_revokes_the_members_keys_in_that_team_only(cast):
    raw = cast.key(cast.member)
    side = actions.create_team(cast.member, "Side")
    _, side_raw = actions.issue_api_key(side, cast.member)
    actions.leave_team(_membership(cast, cast.member))
    assert ApiKey.authenticate(raw) is None
    assert ApiKey.authenticate(side_raw) is not None


def test_an_invitation_is_accepted_once_by_the_verified_invitee(cast):
    actions.mark_email_verified(cast.owner, cast.owner.email)
    invitation, token = actions.create_invitation(
        cast.globex, "mia@acme.test", Role.VIEWER, invited_by=cast.owner
    )
    assert Invitation.for_token(token) == invitation
    with pytest.raises(Forbidden, match="Verify"):
        actions.accept_invitation(invitation, cast.member)
    actions.mark_email_verified(cast.member, cast.member.email)
    with pytest.raises(Forbidden, match="signed in as"):
        actions.accept_invitation(invitation, cast.viewer)
    membership = actions.accept_invitation(invitation, cast.member)
    assert (membership.team, membership.role) == (cast.globex, Role.VIEWER)
    with pytest.raises(InvalidArgument, match="accepted"):
        actions.accept_invitation(invitation, cast.member)


def test_verification_is_for_the_current_address_only(cast):
    assert not actions.mark_email_verified(cast.owner, "someone-else@acme.test")
    assert actions.mark_email_verified(cast.owner, "OLIVIA@acme.test")
    assert not actions.mark_email_verified(cast.owner, cast.owner.email)  # already
    cast.owner.refresh_from_db()
    assert cast.owner.email_verified
