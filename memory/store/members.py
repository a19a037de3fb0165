"""A team's members and invitations: the list, inviting by email with a role, changing roles,
removing a member, leaving, revoking an invitation.

Owners and admins manage; only an owner grants, changes or takes away the owner role; a team
always keeps one owner. Plan caps count members and pending invitations together.
Results that only the web pages read carry datetimes.
"""

from __future__ import annotations

from typing import Any

from accounts import actions as accounts_actions
from accounts.errors import InvalidArgument, NotFound
from accounts.models import Invitation, Membership
from accounts.principal import Principal
from accounts.tokens import invitation_max_age
from billing import actions as billing_actions
from billing import caps
from billing.models import Plan
from memory import inputs, registry, validation
from memory.notes.scoping import echo
from memory.shapes import results_accounts
from memory.store.accounts import account_user, require_manager, team_of


def _email(value: Any, field: str = "email") -> str:
    return validation.text(value, field, limit=inputs.EMAIL.max_length, required=True).lower()


def _membership(principal: Principal, email: Any) -> Membership:
    """The team's membership of this address; not_found for anyone else's member."""
    address = _email(email)
    membership = (
        Membership.objects.select_related("user")
        .filter(team_id=principal.team_id, user__email__iexact=address)
        .first()
    )
    if membership is None:
        raise NotFound(f"No member {echo(address)} in this team.")
    return membership


@registry.read
def list_members(principal: Principal) -> results_accounts.MemberList:
    """The team's members by email, each with their role; `you` marks the caller. With the member
    count against the plan's cap (pending invitations not counted)."""
    memberships = (
        Membership.objects.filter(team_id=principal.team_id).select_related("user").order_by("user__email")
    )
    plan = Plan.of_team(principal.team_id)
    return {
        "members": [
            {
                "email": m.user.email,
                "name": m.user.name,
                "role": m.role,
                "you": m.user_id == principal.user_id,
            }
            for m in memberships
        ],
        "used": caps.members_used(principal.team_id),
        "limit": plan.max_members,
        "plan": plan.name,
    }


@registry.read
def list_invitations(principal: Principal) -> results_accounts.InvitationList:
    """The team's pending invitations (owners and admins)."""
    require_manager(principal)
    pending = Invitation.objects.pending().filter(team_id=principal.team_id).order_by("email")
    return {
        "invitations": [
            {"id": i.public_id, "email": i.email, "role": i.role, "expires_at": i.expires_at} for i in pending
        ]
    }


@registry.write
def invite_member(principal: Principal, email: str, role: str) -> results_accounts.MemberInvited:
    """Invite `email` with `role` (owners and admins; the owner role only by an owner), within the
    plan's member cap. Returns the invitation and its link `token`, to be mailed once; it is never
    stored. Inviting an address again replaces its pending invitation."""
    require_manager(principal)
    address = _email(email)
    inviter = account_user(principal)
    team = team_of(principal)
    invitation, token = billing_actions.invite_member(
        team, address, role, invited_by=inviter, actor=principal
    )
    return {
        "invitation": {"id": invitation.public_id, "email": invitation.email, "role": invitation.role},
        "token": token,
        "team_name": team.name,
        "inviter": inviter.name or inviter.email,
        "valid_days": invitation_max_age().days,
    }


@registry.write
def change_member_role(principal: Principal, email: str, role: str) -> results_accounts.MemberRoleChanged:
    """Give a member another role (owners and admins; the owner role only by an owner; never the
    last owner's)."""
    require_manager(principal)
    membership = accounts_actions.change_role(_membership(principal, email), role, actor=principal)
    return {"email": membership.user.email, "role": membership.role}


@registry.write
def remove_member(principal: Principal, email: str) -> results_accounts.MemberRemoved:
    """Take a member out of the team, revoking their keys in it (owners and admins; never the last
    owner, never the caller: leaving is leave_team)."""
    require_manager(principal)
    membership = _membership(principal, email)
    if membership.user_id == principal.user_id:
        raise InvalidArgument("To leave the team yourself, use “Leave this team”.")
    accounts_actions.remove_member(membership, actor=principal)
    return {"email": membership.user.email, "status": "removed"}


@registry.write
def leave_team(principal: Principal, team_id: int) -> results_accounts.TeamLeft:
    """The principal's user leaves team `team_id` (their keys in it are revoked); the last owner hands
    the team over first. It takes the account principal (principal_for_account), so a viewer, whose
    team principal is read-only, can leave too; not_found for a team the user is not in."""
    membership = (
        Membership.objects.select_related("user", "team")
        .filter(team_id=team_id, user_id=account_user(principal).pk)
        .first()
        if isinstance(team_id, int)
        else None
    )
    if membership is None:
        raise NotFound("You are not in this team.")
    accounts_actions.leave_team(membership)
    return {"team_name": membership.team.name, "status": "left"}


@registry.write
def revoke_invitation(principal: Principal, invitation_id: str) -> results_accounts.InvitationRevoked:
    """Revoke a pending invitation of the team (owners and admins)."""
    require_manager(principal)
    public_id = validation.text(invitation_id, "invitation_id", limit=40, required=True)
    invitation = Invitation.objects.pending().filter(team_id=principal.team_id, public_id=public_id).first()
    if invitation is None:
        raise NotFound(f"No pending invitation {echo(public_id)} in this team.")
    accounts_actions.revoke_invitation(invitation, actor=principal)
    return {"email": invitation.email, "status": "revoked"}
