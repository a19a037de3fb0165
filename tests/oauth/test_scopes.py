"""Scopes end to end: the consent grants no more than the client asked for, a token without `write`
meets `insufficient_scope` on a write (REST and MCP), and a request without any credential gets a
challenge with no `error=` (RFC 6750 §3.1) that names the resource metadata and the scopes."""

from __future__ import annotations

import httpx2
import pytest

from accounts.models import OAuthConnection
from tests.live_mcp import McpCaller
from tests.oauth.flow import Authorization, Browser, Site, read_form, redirect_params, registered_client

MCP_HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
TOOLS_LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}


def _read_only_token(site: Site, email: str) -> str:
    """A client that asks for `read` alone, and a person who picks read-and-write anyway."""
    authorization = Authorization(site, registered_client(site))
    browser = Browser(site, email)
    page = browser.get(authorization.url(scope="read"))
    assert page.status_code == 200
    assert "read_write" not in read_form(page.text).hidden.values()
    assert 'value="read_write"' not in page.text, "the page offers only what the client asked for"
    answer = browser.post_form(
        authorization.url(scope="read"), page, team="acme", project="", access="read_write", allow="on"
    )
    tokens = authorization.exchange(redirect_params(answer)["code"]).json()
    assert tokens["scope"] == "read"
    return str(tokens["access_token"])


def test_consent_grants_exactly_the_scope_the_client_asked_for(site: Site, cast):
    token = _read_only_token(site, cast.member.email)
    assert OAuthConnection.objects.get(user=cast.member).read_only
    assert McpCaller(site.mcp).ok(token, "list_projects")["projects"]


def test_a_token_without_write_gets_insufficient_scope_on_mcp(site: Site, cast):
    token = _read_only_token(site, cast.member.email)
    error = McpCaller(site.mcp).error(token, "remember", {"project": "payments", "content": "A fact."})
    assert error["code"] == "insufficient_scope" and error["scope"] == "write"
    assert "`write` scope" in error["message"] and "read-only key" not in error["message"]


def test_a_token_without_write_gets_insufficient_scope_on_rest(site: Site, cast):
    token = _read_only_token(site, cast.member.email)
    answer = httpx2.post(
        f"{site.url}/api/v1/projects/payments/notes",
        json={"title": "t", "body": "b"},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 403
    challenge = answer.headers["www-authenticate"]
    assert challenge.startswith("Bearer ")
    assert 'error="insufficient_scope"' in challenge and 'scope="write"' in challenge
    assert answer.json()["error"]["code"] == "insufficient_scope"
    read = httpx2.get(f"{site.url}/api/v1/projects", headers={"Authorization": f"Bearer {token}"})
    assert read.status_code == 200


@pytest.mark.parametrize("authorization", [None, "Basic dXNlcjpwYXNz"])
def test_no_bearer_credential_gets_a_challenge_without_error(site: Site, authorization: str | None):
    headers = {"Authorization": authorization} if authorization else {}
    metadata = f'resource_metadata="{site.url}/.well-known/oauth-protected-resource/mcp"'
    mcp = httpx2.post(site.mcp, json=TOOLS_LIST, headers={**MCP_HEADERS, **headers})
    rest = httpx2.get(f"{site.url}/api/v1/projects", headers=headers)
    for answer in (mcp, rest):
        assert answer.status_code == 401
        challenge = answer.headers["www-authenticate"]
        assert challenge.startswith("Bearer ") and metadata in challenge
        assert "error=" not in challenge
        assert 'scope="read write"' in challenge


def test_a_bad_token_gets_invalid_token(site: Site):
    headers = {"Authorization": "Bearer not-a-token"}
    mcp = httpx2.post(site.mcp, json=TOOLS_LIST, headers={**MCP_HEADERS, **headers})
    rest = httpx2.get(f"{site.url}/api/v1/projects", headers=headers)
    for answer in (mcp, rest):
        assert answer.status_code == 401
        assert 'error="invalid_token"' in answer.headers["www-authenticate"]
