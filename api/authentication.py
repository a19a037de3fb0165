"""Credentials → Principal for the REST API, resolved once per request (`request.auth`) by the
edge's functions every entry point shares:

- Bearer: an API key or an OAuth access token.
- The dashboard's web session, with CSRF enforced, acting in the team the session chose.

Either way the Principal carries the team plan's per-credential request rate (api.throttling).
"""

from __future__ import annotations

from typing import Any

from rest_framework.authentication import BaseAuthentication, SessionAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from edge.challenge import no_credential_challenge
from edge.plan_rate import with_plan_rate
from edge.principals import bearer_principal, lazy_user, session_principal
from memory import inputs
from memory.store import Principal

# The client name REST writes are recorded with. Fixed rather than taken from User-Agent: the name
# is stored on notes, revisions and audit rows, and a header is not screened like an argument.
CLIENT_NAME = "rest-api"


class BearerAuthentication(BaseAuthentication):
    """`Authorization: Bearer <API key or OAuth access token>`."""

    def authenticate(self, request: Request) -> tuple[Any, Principal] | None:
        scheme, _, token = get_authorization_header(request).partition(b" ")
        if scheme.lower() != b"bearer":
            return None
        token = token.strip()
        if not token or b" " in token or len(token) > inputs.BEARER_TOKEN.max_length:
            raise AuthenticationFailed("The Authorization header must be `Bearer <credential>`.")
        try:
            raw = token.decode("ascii")
        except UnicodeDecodeError:
            raise AuthenticationFailed(
                "The bearer credential is not a valid API key or OAuth token."
            ) from None
        principal = bearer_principal(raw, client_name=CLIENT_NAME)
        if principal is None:
            raise AuthenticationFailed(
                "The bearer credential is not a valid API key or OAuth token: it is unknown, revoked or "
                "expired, or its user left the team. Create a new key in the dashboard."
            )
        return lazy_user(principal), principal

    def authenticate_header(self, request: Request) -> str:
        # Any value makes DRF answer 401 rather than 403; api/errors.py writes the header itself.
        return no_credential_challenge()


class SessionCsrfAuthentication(SessionAuthentication):
    """The dashboard's signed-in session, acting in the team it chose; unsafe methods need the CSRF
    token (DRF's SessionAuthentication enforces it)."""

    def authenticate(self, request: Request) -> tuple[Any, Principal] | None:
        found = super().authenticate(request)
        if found is None:
            return None
        principal = session_principal(request._request, adopt_first_team=False)
        if principal is None:
            raise AuthenticationFailed("This session has no team to act in: choose a team in the dashboard.")
        return found[0], with_plan_rate(principal)


class HasPrincipal(BasePermission):
    """Every endpoint needs a resolved Principal; what it may do is the store's decision."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return isinstance(request.auth, Principal)
