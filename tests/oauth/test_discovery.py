"""An MCP client that knows only the /mcp URL finds everything else: the 401 names the protected
resource metadata (RFC 9728), which names this server as the authorization server, whose metadata
(RFC 8414) lists the endpoints, dynamic registration for public clients and PKCE S256 only."""

from __future__ import annotations

import httpx2

from tests.oauth.flow import Site


def test_the_401_from_mcp_points_to_the_resource_metadata(site: Site):
    response = httpx2.post(
        site.mcp,
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"},
    )
    assert response.status_code == 401
    challenge = response.headers["www-authenticate"]
    assert challenge.startswith("Bearer ")
    assert f'resource_metadata="{site.url}/.well-known/oauth-protected-resource/mcp"' in challenge


def test_the_resource_metadata_names_this_server_as_the_authorization_server(site: Site):
    metadata = httpx2.get(f"{site.url}/.well-known/oauth-protected-resource/mcp").json()
    assert metadata["resource"] == site.mcp
    assert metadata["authorization_servers"] == [site.url]
    assert metadata["scopes_supported"] == ["read", "write"]


def test_the_authorization_server_metadata(site: Site):
    response = httpx2.get(f"{site.url}/.well-known/oauth-authorization-server")
    assert response.status_code == 200
    metadata = response.json()
    assert metadata["issuer"] == site.url
    assert metadata["authorization_endpoint"] == f"{site.url}/oauth/authorize/"
    assert metadata["token_endpoint"] == f"{site.url}/oauth/token/"
    assert metadata["registration_endpoint"] == f"{site.url}/oauth/register/"
    assert metadata["revocation_endpoint"] == f"{site.url}/oauth/revoke/"
    assert metadata["code_challenge_methods_supported"] == ["S256"]
    assert "none" in metadata["token_endpoint_auth_methods_supported"]
    assert metadata["response_types_supported"] == ["code"]
    assert metadata["grant_types_supported"] == ["authorization_code", "refresh_token"]
    assert metadata["scopes_supported"] == ["read", "write"]
    assert metadata["authorization_response_iss_parameter_supported"] is True
