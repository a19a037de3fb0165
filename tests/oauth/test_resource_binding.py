"""Tokens are bound to this server's /mcp (RFC 8707): no token is issued for another resource, and
/mcp refuses any token not issued for it, including the registration access token of RFC 7591."""

from __future__ import annotations

from oauth2_provider.models import AccessToken, Grant, RefreshToken

from accounts.limits import RECENT_SECONDS
from tests.oauth.flow import (
    Authorization,
    Browser,
    Site,
    connect,
    mcp_status,
    redirect_params,
    refresh,
    register,
)

OTHER = "https://api.example.com/mcp"


def test_an_authorization_for_another_resource_is_refused(site: Site, cast):
    authorization = Authorization(site, register(site).json()["client_id"])
    params = redirect_params(Browser(site, cast.member.email).get(authorization.url(resource=OTHER)))
    assert params["error"] == "invalid_target"
    assert not Grant.objects.exists()


def test_a_token_request_for_another_resource_is_refused(site: Site, cast):
    authorization = Authorization(site, register(site).json()["client_id"])
    code = redirect_params(Browser(site, cast.member.email).consent(authorization.url()))["code"]
    refused = authorization.exchange(code, resource=OTHER)
    assert refused.status_code == 400 and refused.json()["error"] == "invalid_target"
    assert not AccessToken.objects.filter(user=cast.member).exists()


def test_tokens_are_bound_to_mcp_even_when_the_client_names_no_resource(site: Site, cast):
    authorization = Authorization(site, register(site).json()["client_id"])
    code = redirect_params(Browser(site, cast.member.email).consent(authorization.url(resource=None)))["code"]
    tokens = authorization.exchange(code, resource=None).json()
    assert AccessToken.objects.get(user=cast.member).resource == [site.mcp]
    assert mcp_status(site, tokens["access_token"]) == 200
    renewed = refresh(site, authorization.client_id, tokens["refresh_token"]).json()
    assert RefreshToken.objects.get(user=cast.member, revoked=None).resource == [site.mcp]
    assert mcp_status(site, renewed["access_token"]) == 200


def test_mcp_refuses_a_token_issued_for_another_resource(site: Site, cast, recent_clock):
    connected = connect(site, Browser(site, cast.member.email))
    assert mcp_status(site, connected.access_token) == 200
    AccessToken.objects.filter(user=cast.member).update(resource=[OTHER])
    # A queryset update sends no signal: the resolved token is forgotten by expiry, as in another process.
    recent_clock.advance(RECENT_SECONDS)
    assert mcp_status(site, connected.access_token) == 401


def test_mcp_refuses_the_registration_access_token(site: Site, cast):
    registration = register(site).json()
    assert registration["registration_access_token"]
    assert mcp_status(site, registration["registration_access_token"]) == 401
    # It is short-lived, and good only for managing the registration it came with.
    token = AccessToken.objects.get(application__client_id=registration["client_id"])
    assert token.scope == "oauth2_provider:registration"
    assert (token.expires - token.created).total_seconds() <= 3600 + 5
