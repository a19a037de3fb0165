"""Sign-up: a user arrives with a team and a first project, or straight into the team that invited them."""

from __future__ import annotations

from django.db import transaction

from accounts import actions, audit
from accounts.models import Invitation, User
from accounts.principal import Principal, principal_for_session
from billing import actions as billing_actions
from memory import inputs, store

FIRST_PROJECT_NAME = "My first project"


def default_team_name(name: str, email: str) -> str:
    first = name.split()[0] if name.split() else email.split("@")[0]
    return f"{first}'s team"[: inputs.TEAM_NAME.max_length]


@transaction.atomic
def sign_up(email: str, password: str, *, name: str = "", team_name: str = "") -> tuple[User, Principal]:
    """The user, their first team (they own it, on the default plan) and a first project in it."""
    user = actions.create_user(email, password, name=name)
    team = actions.create_team(user, team_name or default_team_name(name, email))
    principal = principal_for_session(user, team.pk)
    if principal is None:  # the team was created with the user as owner just above
        raise RuntimeError("a new team has no owner")
    store.create_project(principal, name=FIRST_PROJECT_NAME)
    audit.record(None, "user.signed_up", team_id=team.pk, object_id=user.email, actor_id=user.pk)
    return user, principal


@transaction.atomic
def sign_up_invited(invitation: Invitation, password: str, *, name: str = "") -> User:
    """An account for the invited address, which the link proves the person reads, joined to the
    inviting team. Nothing is kept if the team is full: the caller shows the plan's refusal."""
    user = actions.create_user(invitation.email, password, name=name)
    actions.mark_email_verified(user, invitation.email)
    billing_actions.accept_invitation(invitation, user)
    audit.record(None, "user.signed_up", team_id=invitation.team_id, object_id=user.email, actor_id=user.pk)
    return user
