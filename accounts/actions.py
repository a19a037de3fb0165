"""Named state changes of accounts: each runs in one transaction and writes its audit row."""

from __future__ import annotations

import secrets
from datetime import datetime

from django.db import transaction
from django.utils.text import slugify

from accounts.models import ApiKey, Membership, Role, Team, User
from accounts.principal import Principal, principal_for_membership
from billing import caps
from billing.models import Plan
from memory import audit
from memory.errors import InvalidArgument


def default_plan() -> Plan | None:
    return Plan.objects.filter(is_default=True).first()


@transaction.atomic
def create_user(email: str, password: str | None = None, name: str = "") -> User:
    return User.objects.create_user(email=email, password=password, name=name)


@transaction.atomic
def create_team(owner: User, name: str, slug: str | None = None, plan: Plan | None = None) -> Team:
    """A team with `owner` as its owner, on the given plan or the default one."""
    base = slugify(slug or name)[:50] or "team"
    candidate = base
    while Team.objects.filter(slug=candidate).exists():
        candidate = f"{base}-{secrets.token_hex(2)}"
    team = Team.objects.create(name=name, slug=candidate, plan=plan or default_plan())
    Membership.objects.create(team=team, user=owner, role=Role.OWNER)
    audit.record(None, "team.created", team_id=team.pk, object_id=team.slug, actor_id=owner.pk)
    return team


def owner_principal(team: Team, user: User, client_name: str = "system") -> Principal:
    membership = Membership.objects.get(team=team, user=user)
    return principal_for_membership(membership, client_name=client_name)


@transaction.atomic
def issue_api_key(
    team: Team,
    user: User,
    *,
    project_id: int | None = None,
    name: str = "API key",
    read_only: bool = False,
    expires_at: datetime | None = None,
    actor: Principal | None = None,
) -> tuple[ApiKey, str]:
    caps.require_api_key(team)
    key, raw = ApiKey.issue(
        team=team,
        user=user,
        project_id=project_id,
        name=name,
        read_only=read_only,
        expires_at=expires_at,
    )
    audit.record(
        actor,
        "api_key.created",
        team_id=team.pk,
        project_id=project_id,
        object_id=key.display_prefix,
        read_only=read_only,
        project_scoped=project_id is not None,
    )
    return key, raw


@transaction.atomic
def revoke_api_key(key: ApiKey, actor: Principal | None = None) -> None:
    key.revoke()
    audit.record(actor, "api_key.revoked", team_id=key.team_id, object_id=key.display_prefix)


@transaction.atomic
def add_member(team: Team, user: User, role: str, actor: Principal | None = None) -> Membership:
    """Add `user` to `team`, within the plan's member cap."""
    if role not in Role.values:
        raise InvalidArgument(f"role must be one of: {', '.join(Role.values)}")
    caps.require_member(Team.objects.select_for_update().get(pk=team.pk))
    membership = Membership.objects.create(team=team, user=user, role=role)
    audit.record(actor, "member.added", team_id=team.pk, object_id=user.email, role=role)
    return membership


@transaction.atomic
def change_role(membership: Membership, role: str, actor: Principal | None = None) -> Membership:
    if role not in Role.values:
        raise InvalidArgument(f"role must be one of: {', '.join(Role.values)}")
    old = membership.role
    if old == Role.OWNER and role != Role.OWNER:
        owners = Membership.objects.filter(team_id=membership.team_id, role=Role.OWNER).count()
        if owners <= 1:
            raise InvalidArgument("A team needs at least one owner: make someone else owner first.")
    membership.role = role
    membership.save(update_fields=["role"])
    audit.record(
        actor,
        "member.role_changed",
        team_id=membership.team_id,
        object_id=membership.user.email,
        old=old,
        new=role,
    )
    return membership


@transaction.atomic
def change_plan(team: Team, plan: Plan, actor: Principal | None = None, actor_id: int | None = None) -> Team:
    """Move a team to another plan. A downgrade keeps every row; only new writes meet the new caps."""
    old = team.plan.code if team.plan else None
    team.plan = plan
    team.save(update_fields=["plan"])
    audit.record(
        actor,
        "team.plan_changed",
        team_id=team.pk,
        object_id=team.slug,
        actor_id=actor_id,
        old=old,
        new=plan.code,
    )
    return team
