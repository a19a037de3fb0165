"""Named state changes of accounts: each runs in one transaction and writes its audit row."""

from __future__ import annotations

import secrets
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from accounts import audit
from accounts.errors import Forbidden, InvalidArgument
from accounts.limits import TEAM_NAME, TEAM_SLUG
from accounts.models import ApiKey, Invitation, Membership, Role, Team, User
from accounts.principal import Principal, principal_for_membership

LAST_OWNER_MESSAGE = "A team needs at least one owner: make someone else owner first."


@transaction.atomic
def create_user(email: str, password: str | None = None, name: str = "") -> User:
    return User.objects.create_user(email=email, password=password, name=name)


# Room left in a team slug for the suffix that makes a taken one unique ("-" and four hex digits).
_SUFFIX_ROOM = 10


def team_slug(name: str) -> str:
    """The slug a team named `name` gets (a random suffix is added when it is taken)."""
    return slugify(name)[: TEAM_SLUG.max_length - _SUFFIX_ROOM] or "team"


@transaction.atomic
def create_team(owner: User, name: str, slug: str | None = None) -> Team:
    """A team with `owner` as its owner; it is on the default plan until billing moves it."""
    base = team_slug(slug or name)
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


def _require_another_owner(membership: Membership) -> None:
    """Refuse to take the owner role away from the team's last owner (by demotion, removal or leaving).

    The owners' rows are locked, so two owners removing each other at once cannot both succeed."""
    if membership.role != Role.OWNER:
        return
    owners = list(
        Membership.objects.select_for_update()
        .filter(team_id=membership.team_id, role=Role.OWNER)
        .values_list("pk", flat=True)
    )
    if len(owners) <= 1:
        raise InvalidArgument(LAST_OWNER_MESSAGE)


def _require_may_grant(actor: Principal | None, *roles: str) -> None:
    """Only owners hand out, change or take away the owner role; an admin can't promote to it."""
    if actor is not None and actor.role != Role.OWNER and Role.OWNER in roles:
        raise Forbidden("Only an owner can grant, change or remove the owner role.")


@transaction.atomic
def change_role(membership: Membership, role: str, actor: Principal | None = None) -> Membership:
    if role not in Role.values:
        raise InvalidArgument(f"role must be one of: {', '.join(Role.values)}")
    old = membership.role
    _require_may_grant(actor, old, role)
    if role != Role.OWNER:
        _require_another_owner(membership)
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


def _revoke_member_keys(membership: Membership, actor: Principal | None) -> None:
    # A key outlives nothing of its user's membership: if they were added back, old keys must not revive.
    for key in ApiKey.objects.usable().filter(team_id=membership.team_id, user_id=membership.user_id):
        revoke_api_key(key, actor=actor)


@transaction.atomic
def remove_member(membership: Membership, actor: Principal | None = None) -> None:
    """Take a member out of the team (their keys in it are revoked); never the last owner."""
    _require_may_grant(actor, membership.role)
    _require_another_owner(membership)
    _revoke_member_keys(membership, actor)
    email = membership.user.email
    membership.delete()
    audit.record(actor, "member.removed", team_id=membership.team_id, object_id=email)


@transaction.atomic
def leave_team(membership: Membership) -> None:
    """The member leaves on their own; the last owner has to hand the team over first."""
    _require_another_owner(membership)
    _revoke_member_keys(membership, None)
    membership.delete()
    audit.record(
        None,
        "member.left",
        team_id=membership.team_id,
        object_id=membership.user.email,
        actor_id=membership.user_id,
    )


@transaction.atomic
def rename_team(team: Team, name: str, actor: Principal | None = None) -> Team:
    clean = " ".join(name.split())
    if not clean:
        raise InvalidArgument("A team needs a name.")
    if len(clean) > TEAM_NAME.max_length:
        raise InvalidArgument(f"A team name has at most {TEAM_NAME.max_length} characters.")
    team.name = clean
    team.save(update_fields=["name"])
    audit.record(actor, "team.renamed", team_id=team.pk, object_id=team.slug)
    return team


@transaction.atomic
def rename_user(user: User, name: str) -> None:
    """Change the display name other members see."""
    user.name = name
    user.save(update_fields=["name"])
    audit.record(None, "user.renamed", object_id=user.email, actor_id=user.pk)


@transaction.atomic
def mark_email_verified(user: User, email: str) -> bool:
    """Record that `user` proved they read mail sent to `email`; False when the address has changed
    since (the proof was for another address) or it was verified already."""
    if user.email.lower() != email.lower():
        return False
    changed = User.objects.filter(pk=user.pk, email=user.email, email_verified_at__isnull=True).update(
        email_verified_at=timezone.now()
    )
    user.refresh_from_db(fields=["email_verified_at"])
    if changed:
        audit.record(None, "user.email_verified", object_id=user.email, actor_id=user.pk)
    return bool(changed)


@transaction.atomic
def change_password(user: User, password: str, *, reason: str) -> None:
    """Set a new password (already validated by the caller's form); `reason` is change or reset."""
    user.set_password(password)
    user.save(update_fields=["password"])
    audit.record(None, "user.password_changed", object_id=user.email, actor_id=user.pk, reason=reason)


@transaction.atomic
def create_invitation(
    team: Team, email: str, role: str, *, invited_by: User, actor: Principal | None = None
) -> tuple[Invitation, str]:
    """Invite `email` with `role`; returns the invitation and its link token (sent once, never stored).

    Plan caps are billing's: billing.actions.invite_member checks them first. Inviting an address
    again replaces its pending invitation, so only the newest link works."""
    if role not in Role.values:
        raise InvalidArgument(f"role must be one of: {', '.join(Role.values)}")
    _require_may_grant(actor, role)
    if not invited_by.email_verified:
        raise Forbidden("Verify your email address before inviting others.")
    address = email.strip().lower()
    if Membership.objects.filter(team=team, user__email__iexact=address).exists():
        raise InvalidArgument(f"{address} is already a member of this team.")
    for stale in Invitation.objects.pending().filter(team=team, email=address):
        revoke_invitation(stale, actor=actor)
    invitation, token = Invitation.issue(team=team, email=address, role=role, invited_by=invited_by)
    audit.record(
        actor, "invitation.created", team_id=team.pk, object_id=invitation.public_id, email=address, role=role
    )
    return invitation, token


@transaction.atomic
def revoke_invitation(invitation: Invitation, actor: Principal | None = None) -> None:
    if invitation.revoked_at is None and invitation.accepted_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
        audit.record(actor, "invitation.revoked", team_id=invitation.team_id, object_id=invitation.public_id)


@transaction.atomic
def accept_invitation(invitation: Invitation, user: User) -> Membership:
    """Join the invitation's team as `user`, once. Plan caps are billing's: billing.actions.accept_invitation
    checks them first. The user must hold the invited address, verified."""
    # Locked and re-read, so two tabs accepting one link cannot both join.
    locked = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if locked.state != "pending":
        raise InvalidArgument(f"This invitation is {locked.state}: ask for a new one.")
    if user.email.lower() != locked.email:
        raise Forbidden(f"This invitation is for {locked.email}; you are signed in as {user.email}.")
    if not user.email_verified:
        raise Forbidden("Verify your email address before accepting an invitation.")
    if Membership.objects.filter(team_id=locked.team_id, user=user).exists():
        raise InvalidArgument("You are already a member of this team.")
    updated = Invitation.objects.filter(pk=locked.pk, accepted_at__isnull=True).update(
        accepted_at=timezone.now(), accepted_by=user
    )
    if updated != 1:
        raise InvalidArgument("This invitation was used already: ask for a new one.")
    membership = Membership.objects.create(team_id=locked.team_id, user=user, role=locked.role)
    audit.record(
        None,
        "invitation.accepted",
        team_id=locked.team_id,
        object_id=locked.public_id,
        actor_id=user.pk,
        role=locked.role,
    )
    audit.record(
        None, "member.added", team_id=locked.team_id, object_id=user.email, actor_id=user.pk, role=locked.role
    )
    return membership
