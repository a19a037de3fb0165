"""Named state changes of accounts: each runs in one transaction and writes its audit row."""

from __future__ import annotations

import secrets
from datetime import datetime

from django.db import transaction
from django.utils.text import slugify

from accounts import audit
from accounts.errors import InvalidArgument
from accounts.models import ApiKey, Membership, Role, Team, User
from accounts.principal import Principal, principal_for_membership


@transaction.atomic
def create_user(email: str, password: str | None = None, name: str = "") -> User:
    return User.objects.create_user(email=email, password=password, name=name)


@transaction.atomic
def create_team(owner: User, name: str, slug: str | None = None) -> Team:
    """A team with `owner` as its owner; it is on the default plan until billing moves it."""
    base = slugify(slug or name)[:50] or "team"
    candidate = base
    while Team.objects.filter(slug=candidate).exists():
        candidate = f"{base}-{secrets.token_hex(2)}"
    team = Team.objects.create(name=name, slug=candidate)
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
    """Issue a key (shown once). Plan caps are billing's: billing.actions.issue_api_key checks them."""
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
    """Add `user` to `team`. Plan caps are billing's: billing.actions.add_member checks them first."""
    if role not in Role.values:
        raise InvalidArgument(f"role must be one of: {', '.join(Role.values)}")
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
