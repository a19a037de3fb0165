"""People and teams: sign-up, the emailed links, passwords, the display name, and the teams a person
is in (the switcher, creating and renaming a team).

Sign-up, password reset and the emailed links act before there is a team, and sign-up and reset
before anyone is signed in: those functions take the account principal
(accounts.principal.principal_for_account), built with no user for an anonymous visitor and with the
user for someone acting on their own account. It belongs to no team, so it reads no team's data and
manages nothing; it writes, so what it stores (display names, team names and the slugs derived from
them, email addresses) is screened as sent and as stored like every other write.

Passwords are never screened: they are stored only as a hash, and a strong random password may look
like a token. Invitation link tokens are not screened either: only their digest is stored.

Results that only the web pages read carry datetimes and User rows (the web signs the new user in).
"""

from __future__ import annotations

from typing import Any

from accounts import actions as accounts_actions
from accounts import audit
from accounts.errors import Forbidden, InvalidArgument, NotFound
from accounts.models import Invitation, Membership, Team, User
from accounts.principal import Principal, principal_for_session
from accounts.tokens import (
    email_verification_max_age,
    email_verification_token,
    read_email_verification_token,
)
from billing import actions as billing_actions
from memory import inputs, registry, validation
from memory.notes.scoping import echo
from memory.screening import guard
from memory.shapes import results_accounts
from memory.store.projects import create_project

FIRST_PROJECT_NAME = "My first project"

MAX_DISPLAY_NAME = int(User._meta.get_field("name").max_length or 150)
MANAGE_MESSAGE = "Only the team's owners and admins can do this."


def require_manager(principal: Principal) -> None:
    if not principal.can_manage:
        raise Forbidden(MANAGE_MESSAGE)


def account_user(principal: Principal) -> User:
    """The signed-in person the principal acts for; forbidden for an anonymous account principal."""
    user = User.objects.filter(pk=principal.user_id, is_active=True).first() if principal.user_id else None
    if user is None:
        raise Forbidden("Sign in first.")
    return user


def team_of(principal: Principal) -> Team:
    team = Team.objects.filter(pk=principal.team_id, memberships__user_id=principal.user_id).first()
    if team is None:
        raise NotFound("You are not in this team.")
    return team


def default_team_name(name: str, email: str) -> str:
    first = name.split()[0] if name.split() else email.split("@")[0]
    return f"{first}'s team"[: inputs.TEAM_NAME.max_length]


def _team_name(name: Any) -> str:
    if not isinstance(name, str):
        raise InvalidArgument("`name` must be a string.")
    clean = " ".join(name.split())
    if not clean:
        raise InvalidArgument("A team needs a name.")
    if len(clean) > inputs.TEAM_NAME.max_length:
        raise InvalidArgument(f"A team name has at most {inputs.TEAM_NAME.max_length} characters.")
    return clean


def _display_name(name: Any) -> str:
    return " ".join(validation.text(name, "name", limit=MAX_DISPLAY_NAME).split())


def _new_team(principal: Principal, owner: User, name: str) -> Team:
    """A team named `name` (screened in its stored form, and so is the slug derived from it)."""
    slug = accounts_actions.team_slug(name)
    guard.stored(principal, {"name": name, "slug": slug})
    return accounts_actions.create_team(owner, name, slug=slug)


def _team_dict(membership: Membership, current_team_id: int) -> results_accounts.TeamChoice:
    team = membership.team
    return {
        "id": team.pk,
        "slug": team.slug,
        "name": team.name,
        "role": membership.role,
        "current": team.pk == current_team_id,
    }


# --- before sign-in ----------------------------------------------------------------------------------


@registry.read
def email_registered(principal: Principal, email: str) -> bool:
    """Whether an account holds this address (any case): sign-up forms refuse a second one."""
    address = validation.text(email, "email", limit=inputs.EMAIL.max_length, required=True)
    return bool(User.objects.filter(email__iexact=address).exists())


@registry.write(unscreened=("password",))
def sign_up(
    principal: Principal, email: str, password: str, name: str = "", team_name: str = ""
) -> results_accounts.SignedUp:
    """A new account (the anonymous account principal), its first team, which it owns on the
    default plan, and a first project in it. Returns the new `user` and the `team_id`."""
    address = validation.text(email, "email", limit=inputs.EMAIL.max_length, required=True)
    clean_name = _display_name(name)
    blank = team_name is None or (isinstance(team_name, str) and not team_name.strip())
    team = None if blank else _team_name(team_name)
    team_name_used = team or default_team_name(clean_name, address)
    guard.stored(principal, {"email": address, "name": clean_name})
    user = accounts_actions.create_user(address, password, name=clean_name)
    created = _new_team(principal, user, team_name_used)
    owner = principal_for_session(user, created.pk)
    if owner is None:  # the team was created with the user as owner just above
        raise RuntimeError("a new team has no owner")
    create_project(owner, name=FIRST_PROJECT_NAME)
    audit.record(None, "user.signed_up", team_id=created.pk, object_id=user.email, actor_id=user.pk)
    return {"user": user, "team_id": created.pk}


def _invitation(token: Any) -> Invitation:
    found = Invitation.for_token(token) if isinstance(token, str) else None
    if found is None:
        raise NotFound("This invitation link is not valid.")
    return found


@registry.read
def get_invitation(principal: Principal, token: str) -> results_accounts.InvitationOffer:
    """What an emailed invitation link offers: its state (pending, accepted, revoked, expired), the
    address, the team and the role. not_found for a forged or mangled link."""
    found = _invitation(token)
    return {
        "id": found.public_id,
        "state": found.state,
        "email": found.email,
        "role": found.role,
        "team_id": found.team_id,
        "team_name": found.team.name,
        "inviter": (found.invited_by.name or found.invited_by.email) if found.invited_by else "",
    }


@registry.write(unscreened=("password", "token"))
def sign_up_invited(principal: Principal, token: str, password: str, name: str = "") -> User:
    """An account for the invited address (the link proves the person reads it), joined to the
    inviting team. Nothing is kept if the team is full: the plan's refusal is raised."""
    found = _invitation(token)
    clean_name = _display_name(name)
    guard.stored(principal, {"name": clean_name})
    user = accounts_actions.create_user(found.email, password, name=clean_name)
    accounts_actions.mark_email_verified(user, found.email)
    billing_actions.accept_invitation(found, user)
    audit.record(None, "user.signed_up", team_id=found.team_id, object_id=user.email, actor_id=user.pk)
    return user


@registry.write(unscreened=("token",))
def accept_invitation(principal: Principal, token: str) -> results_accounts.InvitationAccepted:
    """The signed-in person (account principal) joins the invitation's team, within the plan's
    member cap; they must hold the invited address, verified."""
    found = _invitation(token)
    membership = billing_actions.accept_invitation(found, account_user(principal))
    return {"team_id": membership.team_id, "team_name": found.team.name, "role": membership.role}


@registry.read
def active_user(principal: Principal, user_id: int | None = None, email: str | None = None) -> User | None:
    """The active account an emailed link or a reset request names, by id or by address, or None.
    The pages check the link's token against it before acting as it."""
    users = User.objects.filter(is_active=True)
    if isinstance(user_id, int) and not isinstance(user_id, bool):
        return users.filter(pk=user_id).first()
    if isinstance(email, str) and email.strip():
        return users.filter(email__iexact=email.strip()).first()
    return None


# --- the person's own account ------------------------------------------------------------------------


@registry.write(unscreened=("password",))
def change_password(principal: Principal, password: str, reason: str) -> results_accounts.PasswordChanged:
    """Set the account principal's user's password (validated by the caller's form); `reason` is
    change (signed in) or reset (after the emailed link was checked)."""
    validation.choice(reason, "reason", ["change", "reset"])
    if not isinstance(password, str) or not password:
        raise InvalidArgument("`password` must be a non-empty string.")
    accounts_actions.change_password(account_user(principal), password, reason=reason)
    return {"status": "changed"}


@registry.write
def mark_email_verified(principal: Principal, email: str) -> bool:
    """Record that the account principal's user reads mail sent to `email`; False when the address
    has changed since or was verified already."""
    address = validation.text(email, "email", limit=inputs.EMAIL.max_length, required=True)
    return accounts_actions.mark_email_verified(account_user(principal), address)


@registry.read
def email_verification(principal: Principal) -> results_accounts.EmailVerification:
    """The signed token for the link that confirms the account principal's email address, and how
    many hours it stays good."""
    user = account_user(principal)
    return {
        "email": user.email,
        "token": email_verification_token(user.pk, user.email),
        "hours": int(email_verification_max_age().total_seconds() // 3600),
    }


@registry.read
def read_email_verification(principal: Principal, token: str) -> results_accounts.EmailClaim | None:
    """The active user and address a confirmation link names, or None for a forged, expired or stale
    link (the address changed since it was sent)."""
    claim = read_email_verification_token(token)
    if claim is None:
        return None
    user = User.objects.filter(pk=claim[0], is_active=True).first()
    if user is None or user.email.lower() != claim[1]:
        return None
    return {"user": user, "email": claim[1]}


@registry.write
def update_profile(principal: Principal, name: str) -> results_accounts.Profile:
    """Change the display name other members see (screened as sent and as stored)."""
    user = account_user(principal)
    clean_name = _display_name(name)
    guard.stored(principal, {"name": clean_name})
    accounts_actions.rename_user(user, clean_name)
    return {"name": clean_name}


# --- teams -------------------------------------------------------------------------------------------


@registry.read
def list_teams(principal: Principal) -> results_accounts.TeamList:
    """The teams the principal's user is in, by name, each with their role; `current` marks the
    principal's own team (none for an account principal)."""
    memberships = (
        Membership.objects.filter(user_id=principal.user_id)
        .select_related("team")
        .order_by("team__name", "team_id")
    )
    return {"teams": [_team_dict(m, principal.team_id) for m in memberships]}


@registry.read
def get_team(principal: Principal) -> results_accounts.TeamRole:
    """The principal's team: id, slug, name and the caller's role."""
    team = team_of(principal)
    return {"id": team.pk, "slug": team.slug, "name": team.name, "role": principal.role}


@registry.write
def create_team(principal: Principal, name: str) -> results_accounts.TeamChoice:
    """A new team the signed-in person owns, on the default plan. Its name, and the slug derived from
    it, are screened: a name that holds a secret is refused and never becomes a slug."""
    clean = _team_name(name)
    team = _new_team(principal, account_user(principal), clean)
    return {"id": team.pk, "slug": team.slug, "name": team.name, "role": "owner", "current": False}


@registry.write
def rename_team(principal: Principal, name: str) -> results_accounts.TeamName:
    """Rename the principal's team (owners and admins); the slug stays."""
    require_manager(principal)
    clean = _team_name(name)
    guard.stored(principal, {"name": clean})
    team = accounts_actions.rename_team(team_of(principal), clean, actor=principal)
    return {"id": team.pk, "slug": team.slug, "name": team.name}


@registry.read
def find_team(principal: Principal, slug: str) -> results_accounts.TeamChoice:
    """One of list_teams' teams by slug; not_found for a team the user is not in."""
    for team in list_teams(principal)["teams"]:
        if team["slug"] == slug:
            return team
    raise NotFound(f"You are in no team {echo(slug)}.")
