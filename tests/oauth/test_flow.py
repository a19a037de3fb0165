"""The whole OAuth flow with the official MCP client's OAuth support, given nothing but the /mcp URL:
discovery → registration → the login form → consent → token → tools → refresh → reuse of a rotated
refresh token → the whole family revoked."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

import anyio
import httpx2
from mcp import Client
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import (
    AuthorizationCodeResult,
    OAuthClientInformationFull,
    OAuthClientMetadata,
    OAuthToken,
)
from pydantic import AnyUrl

from accounts.models import AuditEvent, OAuthConnection
from memory.models import Note
from tests.oauth.flow import LOOPBACK_CALLBACK, Browser, Site, mcp_status, redirect_params, refresh


class MemoryStorage:
    """The client's token store (a real client keeps it on disk)."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client_info: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client_info

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client_info = client_info


class Agent:
    """An MCP client configured with only the /mcp URL. Its redirect handler is the person at the
    browser: it opens the authorization URL, logs in and answers the consent page."""

    def __init__(self, site: Site, browser: Browser, **consent: Any) -> None:
        self.site = site
        self.browser = browser
        self.consent = consent
        self.storage = MemoryStorage()
        self.requests: list[str] = []
        self.authorization_urls: list[str] = []
        self._callback: dict[str, str] = {}
        self.provider = OAuthClientProvider(
            server_url=site.mcp,
            client_metadata=OAuthClientMetadata(
                client_name="Test agent",
                redirect_uris=[AnyUrl(LOOPBACK_CALLBACK)],
                grant_types=["authorization_code", "refresh_token"],
                response_types=["code"],
                token_endpoint_auth_method="none",
            ),
            storage=self.storage,
            redirect_handler=self._open_in_browser,
            callback_handler=self._receive_callback,
        )

    async def _open_in_browser(self, url: str) -> None:
        self.authorization_urls.append(url)
        parts = urlsplit(url)
        assert f"{parts.scheme}://{parts.netloc}" == self.site.url
        self._callback = redirect_params(self.browser.consent(f"{parts.path}?{parts.query}", **self.consent))

    async def _receive_callback(self) -> AuthorizationCodeResult:
        return AuthorizationCodeResult(
            code=self._callback["code"], state=self._callback.get("state"), iss=self._callback.get("iss")
        )

    async def _record(self, request: httpx2.Request) -> None:
        self.requests.append(f"{request.method} {request.url.path}")

    @asynccontextmanager
    async def session(self) -> AsyncIterator[Client]:
        http = httpx2.AsyncClient(auth=self.provider, event_hooks={"request": [self._record]}, timeout=30)
        async with Client(streamable_http_client(self.site.mcp, http_client=http)) as client:
            yield client

    def expire_access_token(self) -> None:
        """As if the hour had passed: the client refreshes before its next request."""
        self.provider.context.token_expiry_time = time.time() - 1


def test_a_client_with_only_the_mcp_url_connects_and_writes_under_its_name(site: Site, cast):
    browser = Browser(site, cast.owner.email)
    agent = Agent(site, browser, team="acme", access="read_write")

    async def run() -> tuple[Any, Any]:
        async with agent.session() as client:
            listed = await client.call_tool("list_projects", {})
            remembered = await client.call_tool(
                "remember", {"project": "payments", "content": "Refunds settle in three business days."}
            )
            return listed, remembered

    listed, remembered = anyio.run(run)

    assert [p["slug"] for p in listed.structured_content["projects"]] == ["payments", "website"]
    assert not remembered.is_error, remembered.structured_content
    # Discovery from the 401 alone, then registration, the browser's authorization, the token.
    flow = [r for r in agent.requests if "/mcp" not in r or "well-known" in r]
    assert flow == [
        "GET /.well-known/oauth-protected-resource/mcp",
        "GET /.well-known/oauth-authorization-server",
        "POST /oauth/register/",
        "POST /oauth/token/",
    ]
    assert agent.requests[0] == "POST /mcp"
    assert browser.visited[:3] == ["/oauth/authorize/", "/login/", "/oauth/authorize/"]
    query = dict(part.split("=", 1) for part in urlsplit(agent.authorization_urls[0]).query.split("&"))
    assert query["code_challenge_method"] == "S256"
    assert "resource" in query

    connection = OAuthConnection.objects.get(user=cast.owner)
    assert (connection.team_id, connection.project_id, connection.read_only) == (cast.acme.pk, None, False)
    assert connection.application.name == "Test agent" and connection.last_used_at is not None
    note = Note.objects.get(public_id=remembered.structured_content["note"]["id"])
    assert (note.author_id, note.source) == (cast.owner.pk, "Test agent")
    created = AuditEvent.objects.get(action="note.created", object_id=note.public_id)
    assert (created.client, created.auth_method) == ("Test agent", "oauth")


def test_read_only_grant_then_refresh_rotation_and_reuse_revokes_the_family(site: Site, cast):
    agent = Agent(site, Browser(site, cast.member.email), team="acme", access="read_only")

    async def first_hour() -> tuple[Any, Any]:
        async with agent.session() as client:
            listed = await client.call_tool("list_projects", {})
            refused = await client.call_tool("remember", {"project": "payments", "content": "A fact."})
            return listed, refused

    listed, refused = anyio.run(first_hour)
    assert [p["slug"] for p in listed.structured_content["projects"]] == ["payments", "website"]
    assert refused.is_error and refused.structured_content["error"]["code"] == "insufficient_scope"
    assert agent.storage.tokens is not None and agent.storage.tokens.scope == "read"
    first = agent.storage.tokens

    async def after_expiry() -> Any:
        agent.expire_access_token()
        async with agent.session() as client:
            return await client.call_tool("list_projects", {})

    assert not anyio.run(after_expiry).is_error
    second = agent.storage.tokens
    assert second is not None and agent.storage.client_info is not None
    # The refresh rotated both tokens; the old access token died with its refresh token.
    assert second.refresh_token != first.refresh_token and second.access_token != first.access_token
    # One code exchange, then one refresh: the person was not asked again.
    assert agent.requests.count("POST /oauth/token/") == 2 and len(agent.authorization_urls) == 1
    assert mcp_status(site, first.access_token) == 401
    assert mcp_status(site, second.access_token) == 200

    # Someone replays the rotated refresh token: refused, and the whole family goes with it.
    client_id = agent.storage.client_info.client_id
    assert first.refresh_token is not None and second.refresh_token is not None
    replay = refresh(site, client_id, first.refresh_token)
    assert replay.status_code == 400 and replay.json()["error"] == "invalid_grant"
    assert mcp_status(site, second.access_token) == 401
    assert refresh(site, client_id, second.refresh_token).json()["error"] == "invalid_grant"
    assert not OAuthConnection.objects.live().filter(user=cast.member).exists()
