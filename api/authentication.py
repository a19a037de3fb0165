"""Credentials → Principal for the REST API, resolved once per request (`request.auth`).

- Bearer: an API key or an OAuth access token, tried by a list of resolvers in turn.
- The dashboard's web session, with CSRF enforced, acting in the team the session chose.

Either way the Principal carries the team plan's per-credential request rate (api.throttling).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from django.utils.functional import SimpleLazyObject
from rest_framework.authentication import BaseAuthentication, SessionAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from accounts.models import User
from accounts.principal import (
    SESSION_TEAM_KEY,
    Principal,
    principal_for_api_key,
    principal_for_oauth_token,
    principal_for_session,
)
from billing.models import Plan

# The client name REST writes are recorded with. Fixed rather than taken from User-Agent: the name
# is stored on notes, revisions and audit rows, and a header is not screened like an argument.
CLIENT_NAME = "rest-api"
BEARER_CHALLENGE = 'Bearer realm="knownbase"'
MAX_TOKEN = 4096

BearerResolver = Callable[[str], Principal | None]


def api_key_principal(raw: str) -> Principal | None:
    return principal_for_api_key(raw, CLIENT_NAME)


def oauth_principal(raw: str) -> Principal | None:
    return principal_for_oauth_token(raw)


BEARER_RESOLVERS: tuple[BearerResolver, ...] = (api_key_principal, oauth_principal)


def with_plan_rate(principal: Principal) -> Principal:
    return replace(principal, requests_per_minute=Plan.of_team(principal.team_id).requests_per_minute)


def _user(principal: Principal) -> Any:
    # request.user for code that expects one; loaded only if something reads it.
    return SimpleLazyObject(lambda: User.objects.get(pk=principal.user_id))


class BearerAuthentication(BaseAuthentication):
    """`Authorization: Bearer <API key or OAuth access token>`."""

    resolvers: Sequence[BearerResolver] = BEARER_RESOLVERS

    def authenticate(self, request: Request) -> tuple[Any, Principal] | None:
        scheme, _, token = get_authorization_header(request).partition(b" ")
        if scheme.lower() != b"bearer":
            return None
        token = token.strip()
        if not token or b" " in token or len(token) > MAX_TOKEN:
            raise AuthenticationFailed("The Authorization header must be `Bearer <credential>`.")
        try:
            raw = token.decode("ascii")
        except UnicodeDecodeError:
            raise AuthenticationFailed(
                "The bearer credential is not a valid API key or OAuth token."
            ) from None
        for resolve in self.resolvers:
            principal = resolve(raw)
            if principal is not None:
                return _user(principal), with_plan_rate(principal)
        raise AuthenticationFailed(
            "The bearer credential is not a valid API key or OAuth token: it is unknown, revoked or "
            "expired, or its user left the team. Create a new key in the dashboard."
        )

    def authenticate_header(self, request: Request) -> str:
        return BEARER_CHALLENGE


class SessionCsrfAuthentication(SessionAuthentication):
    """The dashboard's signed-in session, acting in the team it chose; unsafe methods need the CSRF
    token (DRF's SessionAuthentication enforces it)."""

    def authenticate(self, request: Request) -> tuple[Any, Principal] | None:
        found = super().authenticate(request)
        if found is None:
            return None
        user = found[0]
        team_id = request._request.session.get(SESSION_TEAM_KEY)
        principal = principal_for_session(user, team_id) if isinstance(team_id, int) else None
        if principal is None:
            raise AuthenticationFailed("This session has no team to act in: choose a team in the dashboard.")
        return user, with_plan_rate(principal)


class HasPrincipal(BasePermission):
    """Every endpoint needs a resolved Principal; what it may do is the store's decision."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return isinstance(request.auth, Principal)
