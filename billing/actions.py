"""Named state changes of billing: each runs in one transaction and writes its audit row."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts import actions as accounts_actions
from accounts import audit
from accounts.models import ApiKey, Invitation, Membership, Team, User
from accounts.principal import Principal
from billing import caps
from billing.models import Plan, Subscription


@transaction.atomic
def change_plan(team: Team, plan: Plan, actor: Principal | None = None, actor_id: int | None = None) -> Plan:
    """Move a team to another plan. A downgrade keeps every row; only new writes meet the new caps."""
    old = Plan.of_team(team.pk).code
    Subscription.objects.update_or_create(team=team, defaults={"plan": plan, "changed_at": timezone.now()})
    audit.record(
        actor,
        "team.plan_changed",
        team_id=team.pk,
        object_id=team.slug,
        actor_id=actor_id,
        old=old,
        new=plan.code,
    )
    return plan


@transaction.atomic
def issue_api_key(team: Team, user: User, **options: Any) -> tuple[ApiKey, str]:
    """accounts.actions.issue_api_key within the plan's API-key cap (the team row is locked so two
    concurrent issues cannot both pass the count)."""
    Team.objects.select_for_update().filter(pk=team.pk).first()
    caps.require_api_key(team.pk)
    return accounts_actions.issue_api_key(team, user, **options)


@transaction.atomic
def add_member(team: Team, user: User, role: str, actor: Principal | None = None) -> Membership:
    """accounts.actions.add_member within the plan's member cap."""
    Team.objects.select_for_update().filter(pk=team.pk).first()
    caps.require_member(team.pk)
    return accounts_actions.add_member(team, user, role, actor=actor)


@transaction.atomic
def invite_member(
    team: Team, email: str, role: str, *, invited_by: User, actor: Principal | None = None
) -> tuple[Invitation, str]:
    """accounts.actions.create_invitation while the plan has room: members and pending invitations
    together, so a team cannot hand out more invitations than it could accept."""
    Team.objects.select_for_update().filter(pk=team.pk).first()
    address = email.strip().lower()
    # A re-sent invitation replaces its pending one, so it does not count twice.
    pending = Invitation.objects.pending().filter(team=team).exclude(email=address).count()
    caps.require(team.pk, "members", used=caps.members_used(team.pk) + pending)
    return accounts_actions.create_invitation(team, address, role, invited_by=invited_by, actor=actor)


@transaction.atomic
def accept_invitation(invitation: Invitation, user: User) -> Membership:
    """accounts.actions.accept_invitation within the plan's member cap (checked again: the plan may
    have changed since the invitation was sent)."""
    Team.objects.select_for_update().filter(pk=invitation.team_id).first()
    caps.require_member(invitation.team_id)
    return accounts_actions.accept_invitation(invitation, user)
