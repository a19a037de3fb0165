"""/mcp over plain HTTP: the server is stateless, so it answers POST only. A GET (the optional
server-to-client event stream) is 405 at once, as the transport spec allows, instead of a stream held
open forever; clients then carry on with POST."""

from __future__ import annotations

import httpx2
import pytest

STREAM_HEADERS = {"Accept": "text/event-stream", "MCP-Protocol-Version": "2025-06-18"}


@pytest.mark.parametrize("method", ["GET", "DELETE", "PUT"])
def test_an_authenticated_request_other_than_post_is_405_allow_post(mcp, cast, method):
    headers = {**STREAM_HEADERS, "Authorization": f"Bearer {cast.key(cast.member)}"}
    # The timeout only keeps a regression (a stream that never ends) from hanging the suite.
    response = httpx2.request(method, mcp.url, headers=headers, timeout=10)
    assert response.status_code == 405
    assert response.headers["allow"] == "POST"
    assert "text/event-stream" not in response.headers.get("content-type", "")


def test_toolset_core_answers_get_the_same_way(mcp, cast):
    headers = {**STREAM_HEADERS, "Authorization": f"Bearer {cast.key(cast.member)}"}
    response = httpx2.get(f"{mcp.url}?toolset=core", headers=headers, timeout=10)
    assert (response.status_code, response.headers["allow"]) == (405, "POST")


def test_without_a_credential_get_is_still_asked_to_authenticate(mcp):
    response = httpx2.get(mcp.url, headers=STREAM_HEADERS, timeout=10)
    assert response.status_code == 401
    assert "resource_metadata=" in response.headers["www-authenticate"]


def test_the_official_client_works_with_post_only(mcp, cast):
    key = cast.key(cast.member)
    assert {tool.name for tool in mcp.list_tools(key)} >= {"remember", "get_context"}
    assert mcp.ok(key, "list_projects")["projects"]


def test_protected_resource_metadata_is_still_served_on_get(mcp):
    site = mcp.url.removesuffix("/mcp")
    response = httpx2.get(f"{site}/.well-known/oauth-protected-resource/mcp", timeout=10)
    assert response.status_code == 200 and response.json()["resource"].endswith("/mcp")
