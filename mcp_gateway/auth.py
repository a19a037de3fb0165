"""Bearer credentials → Principal, through the SDK's one-method TokenVerifier protocol."""

from __future__ import annotations

from contextvars import ContextVar

from asgiref.sync import sync_to_async
from django.db import close_old_connections
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from pydantic import ConfigDict

from edge.outage import unavailable
from edge.principals import OAUTH_READ_SCOPE, OAUTH_WRITE_SCOPE, bearer_principal, recent_bearer_principal
from memory.store import AuthMethod, Principal

READ_SCOPE = OAUTH_READ_SCOPE
WRITE_SCOPE = OAUTH_WRITE_SCOPE


class PrincipalAccessToken(AccessToken):
    """An access token that carries the resolved Principal into the tools."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    principal: Principal


def _resolve_credential(token: str, resource: str) -> Principal | None:
    """An API key (kb_…) or else an OAuth access token issued for `resource`; both resolve to the
    same kind of Principal."""
    close_old_connections()
    try:
        return bearer_principal(token, resource=resource)
    finally:
        close_old_connections()


class UnverifiedAccessToken(AccessToken):
    """A credential that could not be checked because the database did not answer. It lets the
    request through to the tools only so that each call answers in-band `unavailable` (an HTTP 500
    from the auth middleware would tell an agent nothing); it never yields a Principal."""


def unverified_credential() -> bool:
    return isinstance(get_access_token(), UnverifiedAccessToken)


class CredentialVerifier:
    def __init__(self, resource: str) -> None:
        # The /mcp URL this server answers as (RFC 8707): OAuth tokens must have been issued for it.
        self.resource = resource

    async def verify_token(self, token: str) -> AccessToken | None:
        # A credential resolved in the last second is answered on the event loop: no thread, no query.
        principal = recent_bearer_principal(token, resource=self.resource)
        if principal is None:
            try:
                principal = await sync_to_async(_resolve_credential, thread_sensitive=False)(
                    token, self.resource
                )
            except Exception as exc:
                if unavailable(exc) is None:
                    raise
                # No client id: nothing is counted or attributed to a credential nobody has checked.
                return UnverifiedAccessToken(
                    token=token, client_id="", scopes=[READ_SCOPE], resource=self.resource
                )
        if principal is None:
            return None
        scopes = [READ_SCOPE] if principal.read_only else [READ_SCOPE, WRITE_SCOPE]
        return PrincipalAccessToken(
            token=token,
            client_id=principal.credential_id,
            scopes=scopes,
            resource=self.resource,
            subject=str(principal.user_id),
            principal=principal,
        )


# Set once by the stdio entry point, where the whole process acts for one credential.
process_principal: ContextVar[Principal | None] = ContextVar("process_principal", default=None)


# The client the current call comes from (MCP clientInfo), set per call by the server.
calling_client: ContextVar[str] = ContextVar("calling_client", default="")


def current_principal() -> Principal:
    token = get_access_token()
    if isinstance(token, UnverifiedAccessToken):
        raise PermissionError("the credential of this request was not verified (database unavailable)")
    if isinstance(token, PrincipalAccessToken):
        principal = token.principal
    else:
        fallback = process_principal.get()
        if fallback is None:
            # Over HTTP the auth middleware rejects unauthenticated requests before any tool runs.
            raise PermissionError("no authenticated principal for this request")
        principal = fallback
    if principal.auth_method == AuthMethod.OAUTH:
        # The user approved this client by its registered name; that name stays the source of
        # what it writes rather than whatever clientInfo the session declares.
        return principal
    return principal.with_client(calling_client.get())
