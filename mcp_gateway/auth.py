"""Bearer credentials → Principal, through the SDK's one-method TokenVerifier protocol."""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import replace

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from pydantic import ConfigDict

from accounts.principal import Principal, principal_for_api_key
from billing.models import Plan

READ_SCOPE = "read"
WRITE_SCOPE = "write"


class PrincipalAccessToken(AccessToken):
    """An access token that carries the resolved Principal into the tools."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    principal: Principal


def _resolve_api_key(token: str) -> Principal | None:
    close_old_connections()
    try:
        principal = principal_for_api_key(token)
        if principal is None:
            return None
        return with_plan_rate(principal)
    finally:
        close_old_connections()


def with_plan_rate(principal: Principal) -> Principal:
    """The principal with its team plan's per-credential request rate, which the gateway enforces."""
    return replace(principal, requests_per_minute=Plan.of_team(principal.team_id).requests_per_minute)


class CredentialVerifier:
    async def verify_token(self, token: str) -> AccessToken | None:
        principal = await sync_to_async(_resolve_api_key, thread_sensitive=False)(token)
        if principal is None:
            return None
        scopes = [READ_SCOPE] if principal.read_only else [READ_SCOPE, WRITE_SCOPE]
        return PrincipalAccessToken(
            token=token,
            client_id=principal.credential_id,
            scopes=scopes,
            resource=settings.MCP_URL,
            subject=str(principal.user_id),
            principal=principal,
        )


# Set once by the stdio entry point, where the whole process acts for one credential.
process_principal: ContextVar[Principal | None] = ContextVar("process_principal", default=None)


# The client the current call comes from (MCP clientInfo), set per call by the server.
calling_client: ContextVar[str] = ContextVar("calling_client", default="")


def current_principal() -> Principal:
    token = get_access_token()
    if isinstance(token, PrincipalAccessToken):
        principal = token.principal
    else:
        fallback = process_principal.get()
        if fallback is None:
            # Over HTTP the auth middleware rejects unauthenticated requests before any tool runs.
            raise PermissionError("no authenticated principal for this request")
        principal = fallback
    return principal.with_client(calling_client.get())
