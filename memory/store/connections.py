"""OAuth: the apps a person connected (listed and revoked on the Connected apps page), what the
consent page offers, and the screening of OAuth client names.

The Connected apps page and the consent page act for the signed-in person across their teams: they
take the account principal (accounts.principal.principal_for_account). A client registers itself
anonymously (RFC 7591): its name is screened with the anonymous account principal before the
registration is stored, and again in its stored form by the row guard (memory/store/rows.py).
"""

from __future__ import annotations

import uuid

from oauth2_provider.models import Application, Grant

from accounts import oauth
from accounts.errors import NotFound
from accounts.models import Membership, OAuthConnection
from accounts.principal import Principal, principal_for_membership
from memory import registry, validation
from memory.models import Project
from memory.notes.scoping import echo
from memory.screening import guard
from memory.shapes import results_accounts
from memory.store.accounts import account_user

MAX_CLIENT_NAME = int(Application._meta.get_field("name").max_length or 255)


@registry.read
def list_connections(principal: Principal) -> results_accounts.ConnectionList:
    """Every OAuth client the principal's user connected that can still act, newest first, with its
    team, project (None: all projects) and access."""
    user = account_user(principal)
    connections = list(
        OAuthConnection.objects.live()
        .filter(user=user)
        .select_related("application", "team")
        .order_by("-created_at")
    )
    project_ids = {c.project_id for c in connections if c.project_id is not None}
    project_names = dict(
        Project.objects.filter(pk__in=project_ids, team__memberships__user=user).values_list("pk", "name")
    )
    return {
        "connections": [
            {
                "id": c.public_id,
                "client_name": c.client_name,
                "team_name": c.team.name,
                "project_name": project_names.get(c.project_id) if c.project_id is not None else None,
                "read_only": c.read_only,
                "created_at": c.created_at,
                "last_used_at": c.last_used_at,
            }
            for c in connections
        ]
    }


@registry.write
def revoke_connection(principal: Principal, connection_id: str) -> results_accounts.ConnectionRevoked:
    """End one of the user's OAuth connections now (its tokens stop working); not_found for anyone
    else's."""
    user = account_user(principal)
    public_id = validation.text(connection_id, "connection_id", limit=40, required=True)
    connection = (
        OAuthConnection.objects.live()
        .select_related("application")
        .filter(public_id=public_id, user=user)
        .first()
    )
    if connection is None:
        raise NotFound(f"No connected app {echo(public_id)}.")
    oauth.revoke_connection(connection, by=user)
    return {"id": connection.public_id, "client_name": connection.client_name, "status": "revoked"}


@registry.read
def consent_choices(principal: Principal) -> results_accounts.ConsentChoices:
    """What the consent page offers the signed-in person: each of their teams (by name) with the
    projects they see in it and their role there."""
    memberships = (
        Membership.objects.filter(user_id=account_user(principal).pk)
        .select_related("team")
        .order_by("team__name", "team__slug")
    )
    teams: list[results_accounts.ConsentTeam] = []
    for membership in memberships:
        visible = Project.objects.visible_to(principal_for_membership(membership)).order_by("name")
        teams.append(
            {
                "id": membership.team_id,
                "slug": membership.team.slug,
                "name": membership.team.name,
                "role": membership.role,
                "projects": [{"id": p.pk, "public_id": p.public_id, "name": p.name} for p in visible],
            }
        )
    return {"teams": teams}


@registry.read
def find_oauth_client(principal: Principal, client_id: str) -> Application | None:
    """The registered OAuth client with this client_id, or None (the consent page re-shows its form
    for it). Takes the account principal: clients belong to no team."""
    if not isinstance(client_id, str) or not client_id:
        return None
    return Application.objects.filter(client_id=client_id).first()


@registry.write
def connect_oauth_client(
    principal: Principal,
    application_id: int,
    grant_id: int,
    team_id: int,
    project_id: int | None,
    read_only: bool,
) -> results_accounts.OAuthConnected:
    """Record what the signed-in person (account principal) approved on the consent page for the
    client: the team, optionally one project, and read-only or read-write access; the tokens minted
    for the grant will act so. A viewer's connection is read-only whatever was asked."""
    user = account_user(principal)
    membership = Membership.objects.filter(team_id=team_id, user=user).first()
    if membership is None:
        raise NotFound("You are not in this team.")
    project = (
        Project.objects.visible_to(principal_for_membership(membership)).filter(pk=project_id).first()
        if project_id is not None
        else None
    )
    if project_id is not None and project is None:
        raise NotFound("No such project in this team.")
    connection = oauth.connect(
        user=user,
        application=Application.objects.get(pk=application_id),
        code=Grant.objects.get(pk=grant_id),
        team_id=team_id,
        project_id=project_id,
        read_only=validation.flag(read_only, "read_only"),
    )
    return {"id": connection.public_id, "read_only": connection.read_only}


def bind_oauth_token_family(code: str, token_family: uuid.UUID) -> None:
    """Tie the tokens minted for an authorization code to the connection its consent created.

    It takes no Principal: the token endpoint authenticates the client (with PKCE), not a person;
    the connection was recorded, for the person who consented, by connect_oauth_client."""
    OAuthConnection.bind_token_family(code, token_family)


def revoke_replayed_oauth_code(code: str, application_id: int) -> bool:
    """An authorization code was presented again after its exchange: revoke every token issued from
    it and end its connection (RFC 6749 §4.1.2); True when there were such tokens.

    It takes no Principal for the same reason as bind_oauth_token_family: the token endpoint knows
    only the client, and here the caller is likely not even that client."""
    return oauth.revoke_replayed_code(code, application_id)


def oauth_token_of_another_client(token: str, application_id: int) -> bool:
    """Whether `token` is a live access or refresh token issued to a client other than
    `application_id`: a revocation request for it is refused (RFC 7009 §2.1), not answered as done.

    It takes no Principal: the revocation endpoint authenticates the client, not a person."""
    return oauth.token_of_another_client(token, application_id)


@registry.write
def screen_client_name(principal: Principal, client_name: str) -> results_accounts.ClientNameScreened:
    """Refuse an OAuth client name (a registration's client_name, an admin's application name) that
    holds a secret, before the registration is stored. Takes the anonymous account principal:
    clients register themselves before anyone signs in."""
    name = validation.text(client_name, "client_name", limit=MAX_CLIENT_NAME)
    guard.stored(principal, {"client_name": name})
    return {"client_name": name}
