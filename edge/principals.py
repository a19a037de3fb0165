"""Credential → Principal, one function per kind of credential, for every entry point: an API key
or an OAuth access token (Bearer, over MCP and REST) and the web session (pages and REST).

Bearer principals carry the team plan's request rate (edge.plan_rate), which the entry points
enforce per credential; the session's does not, as pages are not rate-limited by plan."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from accounts import recent
from accounts.models import API_KEY_PREFIX, OAUTH_READ_SCOPE, OAUTH_WRITE_SCOPE, ApiKey, Membership, User
from accounts.principal import (
    SESSION_TEAM_KEY,
    Principal,
    principal_for_authenticated_key,
    principal_for_oauth_token,
    principal_for_session,
)
from edge.plan_rate import TEAM_PLAN, default_plan_rate, plan_rate, with_plan_rate

__all__ = [
    "OAUTH_READ_SCOPE",
    "OAUTH_WRITE_SCOPE",
    "SESSION_TEAM_KEY",
    "api_key_principal",
    "bearer_principal",
    "choose_team",
    "lazy_user",
    "oauth_principal",
    "recent_bearer_principal",
    "session_principal",
    "signed_in_user",
]

# The session's Principal is resolved once per request and kept on it under this name.
_CACHE_ATTRIBUTE = "_knownbase_principal"


def api_key_principal(raw: str, client_name: str = "") -> Principal | None:
    """The Principal of a raw API key, or None when it is unknown, revoked or expired, or its user
    left the team. Warm (resolved in this process in the last RECENT_SECONDS): no query; cold: one
    (key, team, user, membership role, subscription and plan together)."""
    cache_key = _api_key_entry(raw, client_name)
    cached = recent.principals.get(cache_key)
    if cached is not None:
        return cached
    generation = recent.principals.generation
    keys = ApiKey.objects.select_related(TEAM_PLAN).annotate(default_plan_rate=default_plan_rate())
    key = ApiKey.authenticate(raw, keys=keys)
    principal = principal_for_authenticated_key(key, client_name) if key is not None else None
    if key is None or principal is None:
        return None
    principal = replace(
        principal, requests_per_minute=plan_rate(key.team, getattr(key, "default_plan_rate", None))
    )
    recent.principals.put(cache_key, principal, _tags(principal), generation)
    return principal


def oauth_principal(raw: str, resource: str | None = None) -> Principal | None:
    """The Principal of an OAuth access token issued for `resource` (the /mcp URL by default), or
    None when it is not a live token for it. Warm: no query, as for API keys."""
    cache_key = _oauth_entry(raw, resource)
    cached = recent.principals.get(cache_key)
    if cached is not None:
        return cached
    generation = recent.principals.generation
    principal = principal_for_oauth_token(raw, resource=resource)
    if principal is None:
        return None
    principal = with_plan_rate(principal)
    recent.principals.put(cache_key, principal, _tags(principal), generation)
    return principal


def bearer_principal(raw: str, *, client_name: str = "", resource: str | None = None) -> Principal | None:
    """A Bearer credential: an API key (kb_…) or else an OAuth access token."""
    if raw.startswith(API_KEY_PREFIX):
        return api_key_principal(raw, client_name)
    return oauth_principal(raw, resource)


def recent_bearer_principal(
    raw: str, *, client_name: str = "", resource: str | None = None
) -> Principal | None:
    """What bearer_principal would answer if it resolved `raw` in the last RECENT_SECONDS, else None.
    Touches no database, so async callers may skip the thread hop a resolution needs."""
    entry = (
        _api_key_entry(raw, client_name) if raw.startswith(API_KEY_PREFIX) else _oauth_entry(raw, resource)
    )
    return recent.principals.get(entry)


def _api_key_entry(raw: str, client_name: str) -> tuple[str, str, str]:
    return ("api_key", recent.digest(raw), client_name)


def _oauth_entry(raw: str, resource: str | None) -> tuple[str, str, str]:
    return ("oauth", recent.digest(raw), resource or "")


def _tags(principal: Principal) -> list[recent.Tag]:
    return [recent.team_tag(principal.team_id), recent.user_tag(principal.user_id)]


def lazy_user(principal: Principal) -> Any:
    """The principal's user as `request.user` for code that expects one; loaded only if read."""
    return SimpleLazyObject(lambda: User.objects.get(pk=principal.user_id))


def signed_in_user(request: HttpRequest) -> User | None:
    user = request.user
    return user if isinstance(user, User) and user.is_authenticated else None


def session_principal(request: HttpRequest, *, adopt_first_team: bool = True) -> Principal | None:
    """The Principal of the session's team; when the user has left that team (or never chose one),
    their first team becomes the session's. None for anonymous users and users in no team.

    With `adopt_first_team` off, only the team the session chose counts (None without one): for
    callers that must not act in a team the person never picked, such as REST calls with the
    session's cookie."""
    if not adopt_first_team:
        user = signed_in_user(request)
        team_id = request.session.get(SESSION_TEAM_KEY)
        return principal_for_session(user, team_id) if user is not None and isinstance(team_id, int) else None
    if hasattr(request, _CACHE_ATTRIBUTE):
        cached: Principal | None = getattr(request, _CACHE_ATTRIBUTE)
        return cached
    user = signed_in_user(request)
    principal = None
    if user is not None:
        team_id = request.session.get(SESSION_TEAM_KEY)
        if isinstance(team_id, int):
            principal = principal_for_session(user, team_id)
        if principal is None:
            first = Membership.objects.filter(user=user).order_by("created_at", "pk").first()
            if first is not None:
                principal = principal_for_session(user, first.team_id)
                request.session[SESSION_TEAM_KEY] = first.team_id
    setattr(request, _CACHE_ATTRIBUTE, principal)
    return principal


def choose_team(request: HttpRequest, team_id: int) -> Principal | None:
    """Act in `team_id` from now on; None (and nothing changed) when the user is not a member of it."""
    user = signed_in_user(request)
    principal = principal_for_session(user, team_id) if user is not None else None
    if principal is not None:
        request.session[SESSION_TEAM_KEY] = team_id
        setattr(request, _CACHE_ATTRIBUTE, principal)
    return principal
