"""Who is calling: resolved once at the edge (API key, OAuth token, web session) and passed down."""

from __future__ import annotations

from dataclasses import dataclass

from accounts.models import ApiKey, Membership, Role


@dataclass(frozen=True)
class Principal:
    user_id: int
    team_id: int
    role: str
    project_id: int | None = None  # set for a project-scoped credential
    read_only: bool = False  # a read-only credential or a viewer
    client_name: str = ""
    api_key_id: int | None = None
    requests_per_minute: int = 0  # the team plan's limit for this credential; 0 means unlimited

    @property
    def can_write(self) -> bool:
        return not self.read_only and self.role != Role.VIEWER

    @property
    def can_manage(self) -> bool:
        """Owners and admins manage the team: members, keys, plan, screening rules."""
        return self.can_write and self.role in (Role.OWNER, Role.ADMIN)


def principal_for_membership(
    membership: Membership,
    *,
    project_id: int | None = None,
    read_only: bool = False,
    client_name: str = "",
    api_key_id: int | None = None,
    requests_per_minute: int = 0,
) -> Principal:
    return Principal(
        user_id=membership.user_id,
        team_id=membership.team_id,
        role=membership.role,
        project_id=project_id,
        read_only=read_only or membership.role == Role.VIEWER,
        client_name=client_name[:100],
        api_key_id=api_key_id,
        requests_per_minute=requests_per_minute,
    )


def principal_for_api_key(raw_key: str, client_name: str = "") -> Principal | None:
    """The Principal a raw API key acts as, or None when the key is unknown, revoked or expired,
    or its user is no longer a member of the key's team."""
    key = ApiKey.authenticate(raw_key)
    if key is None:
        return None
    membership = Membership.objects.filter(team_id=key.team_id, user_id=key.user_id).first()
    if membership is None:
        return None
    key.touch()
    return principal_for_membership(
        membership,
        project_id=key.project_id,
        read_only=key.read_only,
        client_name=client_name or "api-key",
        api_key_id=key.pk,
        requests_per_minute=key.team.effective_plan.requests_per_minute,
    )
