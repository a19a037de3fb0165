"""django-oauth-toolkit configured for MCP clients: the oauthlib server and the request validator.

The protocol is oauthlib's and DOT's; this module only sets policy through their extension points:
PKCE S256 only, tokens bound to the /mcp resource, our redirect URI rules, and the consent choice
(team, project, access) recorded with the authorization code and tied to the tokens it produces.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import parse_qsl

from oauth2_provider.models import Grant, RefreshToken
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauthlib.common import Request
from oauthlib.oauth2 import Server
from oauthlib.oauth2.rfc6749 import errors
from oauthlib.oauth2.rfc6749.grant_types.authorization_code import code_challenge_method_s256

from edge.site import mcp_url
from memory import store
from memory.store import same_resource
from web.oauth.redirects import redirect_uri_allowed

# The consent view passes the user's choice to the validator under this name (an oauthlib request
# attribute, through DOT's `credentials`).
CONSENT = "knownbase_consent"


def requested_resources(request: Request) -> list[str]:
    """The RFC 8707 `resource` values of an authorization request: from the query string when the
    client's browser arrives, from the consent form (a list) when the user answers."""
    value = getattr(request, "resource", None)
    if isinstance(value, list):
        return [str(item) for item in value]
    query = request.uri_query or ""
    return [item for key, item in parse_qsl(query, keep_blank_values=True) if key == "resource"]


def bind_to_mcp(request: Request) -> dict[str, Any]:
    """Authorization requests may name only this server's /mcp as their resource; a request naming
    none is bound to it too, so every token this server issues is good for /mcp and nothing else."""
    resources = requested_resources(request)
    foreign = [item for item in resources if not same_resource(item, mcp_url())]
    if foreign:
        raise errors.CustomOAuth2Error(
            error="invalid_target",
            description=f"This server issues tokens only for {mcp_url()}, not {foreign[0]}.",
            request=request,
        )
    request.resource = resources or [mcp_url()]
    return {}


class KnownbaseServer(Server):
    """oauthlib's server with the authorization code grant accepting only PKCE S256 (a missing
    method would default to `plain`, so it is refused too) and binding every grant to /mcp."""

    def __init__(self, request_validator: OAuth2Validator, *args: Any, **kwargs: Any) -> None:
        super().__init__(request_validator, *args, **kwargs)
        self.auth_grant._code_challenge_methods = {"S256": code_challenge_method_s256}
        self.auth_grant.custom_validators.pre_auth.append(bind_to_mcp)


class KnownbaseValidator(OAuth2Validator):
    def validate_redirect_uri(
        self, client_id: str, redirect_uri: str, request: Request, *args: Any, **kwargs: Any
    ) -> bool:
        return redirect_uri_allowed(redirect_uri, request.client.redirect_uris.split())

    def _create_authorization_code(
        self, request: Request, code: dict[str, str], expires: datetime | None = None
    ) -> Grant:
        consent = getattr(request, CONSENT, None)
        if consent is None:
            # Only the consent page answers an authorization request: the team, project and
            # access are chosen there, so no code is issued without it.
            raise errors.AccessDeniedError(
                description="Authorization needs the consent page.", request=request
            )
        grant: Grant = super()._create_authorization_code(request, code, expires)
        store.connect_oauth_client(
            store.principal_for_account(request.user),
            request.client.pk,
            grant.pk,
            consent["team_id"],
            consent["project_id"],
            consent["read_only"],
        )
        return grant

    def _create_refresh_token(
        self,
        request: Request,
        refresh_token_code: str,
        access_token: Any,
        previous_refresh_token: RefreshToken | None,
    ) -> RefreshToken:
        token: RefreshToken = super()._create_refresh_token(
            request, refresh_token_code, access_token, previous_refresh_token
        )
        if previous_refresh_token is None and request.grant_type == "authorization_code":
            store.bind_oauth_token_family(request.code, token.token_family)
        return token
