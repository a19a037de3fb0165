"""Who is calling: resolved once at the edge (API key, OAuth token, web session, stdio) and passed down.

Every store function takes a Principal first. It carries the tenant and scope, how the caller
authenticated and through which client, so notes, revisions and audit rows name the real client."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from accounts.errors import (
    OAUTH_READ_ONLY_MESSAGE,
    READ_ONLY_MESSAGE,
    VIEWER_MESSAGE,
    Forbidden,
    InsufficientScope,
)
from accounts.limits import CLIENT_NAME
from accounts.models import (
    API_KEY_PREFIX,
    OAUTH_WRITE_SCOPE,
    ApiKey,
    Membership,
    OAuthConnection,
    Role,
    Team,
    User,
)
from accounts.site import mcp_url

STAFF_ROLE = "staff"  # not a membership role: the staff principal's, which may write but never manage
# Not a membership role either: a person acting on their own account, outside any team (sign-up,
# their team list, their OAuth connections). It sees no team's data and manages nothing.
ACCOUNT_ROLE = "account"
NO_TEAM = 0  # the team id of an account principal: no team has it
MODERATE = "moderate"  # the staff operation of settling disputed memories
ADMINISTER = "administer"  # the staff operation of removing a team's project from the admin
# Where a web session keeps the team its user chose (edge/principals.py sets and reads it for every
# session-based entry point, pages and REST alike).
SESSION_TEAM_KEY = "knownbase_team_id"


class AuthMethod(StrEnum):
    API_KEY = "api_key"
    OAUTH = "oauth"
    SESSION = "session"
    STDIO = "stdio"
    SYSTEM = "system"  # a management command or a webhook acting for a user
    STAFF = "staff"  # an operator in the Django admin, acting on one team's shared notes


@dataclass(frozen=True)
class Principal:
    user_id: int
    team_id: int
    role: str
    project_id: int | None = None  # set for a project-scoped credential
    read_only: bool = False  # a read-only credential or a viewer
    auth_method: AuthMethod = AuthMethod.SYSTEM
    credential_id: str = ""  # names the credential (never its secret): rate limits and audit key on it
    client_name: str = ""  # the real client: MCP clientInfo, the OAuth application, or "web"
    requests_per_minute: int = 0  # the team plan's limit for this credential; 0 means unlimited
    # Named operations a staff member may perform across teams (moderation); empty for everyone else.
    staff_operations: frozenset[str] = field(default_factory=frozenset)

    @property
    def can_write(self) -> bool:
        return not self.read_only and self.role != Role.VIEWER

    @property
    def can_manage(self) -> bool:
        """Owners and admins manage the team: members, keys, plan, screening rules."""
        return self.can_write and self.role in (Role.OWNER, Role.ADMIN)

    @property
    def rate_limit_key(self) -> str:
        return self.credential_id or f"{self.auth_method}:{self.user_id}"

    @property
    def is_account(self) -> bool:
        """Acting on an account outside any team (principal_for_account)."""
        return self.team_id == NO_TEAM

    @property
    def is_staff(self) -> bool:
        """Acting as an operator, not as a member: sees only the team's shared notes."""
        return bool(self.staff_operations)

    def may_staff(self, operation: str) -> bool:
        return operation in self.staff_operations

    def write_refusal(self) -> Forbidden:
        """Why this read-only principal may not write, with the advice that fits: an OAuth token
        without the `write` scope (a viewer's connection never has it), a viewer's role, or a
        read-only key."""
        if self.auth_method == AuthMethod.OAUTH:
            return InsufficientScope(OAUTH_READ_ONLY_MESSAGE, scope=OAUTH_WRITE_SCOPE)
        if self.role == Role.VIEWER:
            return Forbidden(VIEWER_MESSAGE)
        return Forbidden(READ_ONLY_MESSAGE)

    def with_client(self, client_name: str) -> Principal:
        name = client_name.strip()[: CLIENT_NAME.max_length]
        return replace(self, client_name=name) if name else self


def principal_for_membership(
    membership: Membership,
    *,
    auth_method: AuthMethod = AuthMethod.SYSTEM,
    credential_id: str = "",
    project_id: int | None = None,
    read_only: bool = False,
    client_name: str = "",
) -> Principal:
    return Principal(
        user_id=membership.user_id,
        team_id=membership.team_id,
        role=membership.role,
        project_id=project_id,
        read_only=read_only or membership.role == Role.VIEWER,
        auth_method=auth_method,
        credential_id=credential_id,
        client_name=client_name.strip()[: CLIENT_NAME.max_length] or str(auth_method),
    )


def principal_for_account(user: User | None = None) -> Principal:
    """A person acting on their own account, outside any team, or nobody yet (`user` None: signing
    up, asking for a password reset, following an emailed link).

    The store's account functions (memory/store/accounts.py, connections.py) take it. Its team is
    NO_TEAM, so every team-scoped read finds nothing and every manager check refuses it; it may
    write, so what it stores (a display name, a team name) goes through the screening gate."""
    user_id = user.pk if user is not None else 0
    return Principal(
        user_id=user_id,
        team_id=NO_TEAM,
        role=ACCOUNT_ROLE,
        auth_method=AuthMethod.SESSION if user is not None else AuthMethod.SYSTEM,
        credential_id=f"account:{user_id}",
        client_name="web",
    )


def principal_for_staff(user: User, team_id: int) -> Principal | None:
    """An active staff user moderating team `team_id` from the admin, or None for anyone else.

    Staff are usually not members: the principal carries the team for scoping and audit, the
    operations the store functions open to staff check (`moderate`, and `administer`: deleting a
    project), and the staff role, which writes but manages nothing. The store shows it the team's shared notes only, never private ones."""
    if not (user.is_active and user.is_staff) or not Team.objects.filter(pk=team_id).exists():
        return None
    return Principal(
        user_id=user.pk,
        team_id=team_id,
        role=STAFF_ROLE,
        auth_method=AuthMethod.STAFF,
        credential_id=f"{AuthMethod.STAFF}:{user.pk}",
        client_name="admin",
        staff_operations=frozenset({MODERATE, ADMINISTER}),
    )


def principal_for_api_key(raw_key: str, client_name: str = "") -> Principal | None:
    """The Principal a raw API key acts as, or None when the key is unknown, revoked or expired,
    or its user is no longer a member of the key's team."""
    key = ApiKey.authenticate(raw_key)
    return principal_for_authenticated_key(key, client_name) if key is not None else None


def principal_for_authenticated_key(key: ApiKey, client_name: str = "") -> Principal | None:
    """The Principal of a key ApiKey.authenticate returned (no query: its membership role came
    with it), recording the key's use; None when its user left the key's team."""
    principal = _principal_for_key(key, client_name)
    if principal is not None:
        key.touch()
    return principal


def _principal_for_key(key: ApiKey, client_name: str) -> Principal | None:
    membership: Membership | None
    if hasattr(key, "member_role"):  # loaded by ApiKey.authenticate
        role = key.member_role
        membership = Membership(team_id=key.team_id, user_id=key.user_id, role=role) if role else None
    else:
        membership = Membership.objects.filter(team_id=key.team_id, user_id=key.user_id).first()
    if membership is None:
        return None
    return principal_for_membership(
        membership,
        auth_method=AuthMethod.API_KEY,
        credential_id=f"{AuthMethod.API_KEY}:{key.display_prefix}",
        project_id=key.project_id,
        read_only=key.read_only,
        client_name=client_name or "api-key",
    )


def principal_for_oauth_token(raw_token: str, resource: str | None = None) -> Principal | None:
    """The Principal an OAuth access token acts as: exactly an API key of the scope chosen on the
    consent page (team, optional project, read-only or read-write), named after the OAuth client.
    None when the token is unknown, expired, revoked, issued for another resource than /mcp, lacks
    the product's scope, or its user is no longer a member of the connection's team. `resource`
    is the server's /mcp URL (accounts.site.mcp_url() unless the caller serves another)."""
    found = OAuthConnection.authenticate(raw_token, resource or mcp_url())
    if found is None:
        return None
    connection, token = found
    principal = _principal_for_connection(
        connection, read_only=connection.read_only or OAUTH_WRITE_SCOPE not in token.scope.split()
    )
    if principal is not None:
        connection.touch()
    return principal


def _principal_for_connection(connection: OAuthConnection, *, read_only: bool) -> Principal | None:
    membership = Membership.objects.filter(team_id=connection.team_id, user_id=connection.user_id).first()
    if membership is None:
        return None
    return principal_for_membership(
        membership,
        auth_method=AuthMethod.OAUTH,
        credential_id=f"{AuthMethod.OAUTH}:{connection.public_id}",
        project_id=connection.project_id,
        read_only=read_only,
        client_name=connection.client_name,
    )


def principal_for_session(user: User, team_id: int) -> Principal | None:
    """A signed-in person acting in the team they chose, or None when they are not (or no longer) in it."""
    if not user.is_active:
        return None
    membership = Membership.objects.filter(team_id=team_id, user=user).first()
    if membership is None:
        return None
    return principal_for_membership(
        membership, auth_method=AuthMethod.SESSION, credential_id=f"session:{user.pk}", client_name="web"
    )


def principal_for_credential(credential_id: str, team_id: int) -> Principal | None:
    """What the credential named `credential_id` (a Principal's credential_id) may do in `team_id` now,
    or None when it is no longer live there.

    For something a credential was given to use later (an export link), so that revoking or expiring
    the key, revoking the OAuth connection (or its token family), the member leaving the team, or the
    user being deactivated ends it, and its scope and read-only flag are today's. A kind of credential
    this cannot check is never live.
    """
    kind, _, reference = credential_id.partition(":")
    if kind == AuthMethod.API_KEY and reference.startswith(API_KEY_PREFIX):
        key = (
            ApiKey.objects.usable()
            .filter(lookup=reference[len(API_KEY_PREFIX) :], team_id=team_id, user__is_active=True)
            .first()
        )
        return _principal_for_key(key, "") if key is not None else None
    if kind == AuthMethod.OAUTH and reference:
        connection = (
            OAuthConnection.objects.live()
            .select_related("application")
            .filter(public_id=reference, team_id=team_id, user__is_active=True)
            .first()
        )
        return _principal_for_connection(connection, read_only=connection.read_only) if connection else None
    if kind == AuthMethod.SESSION and reference.isascii() and reference.isdigit():
        user = User.objects.filter(pk=int(reference)).first()
        return principal_for_session(user, team_id) if user is not None else None
    return None
