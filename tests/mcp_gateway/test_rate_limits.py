"""Rate limits: per IP before the credential lookup (HTTP 429), per credential from the plan
(rate_limited tool result), both with a retry time."""

from __future__ import annotations

import httpx2
import pytest
from django.core.cache import cache

FROZEN = 1_800_000_030.0  # 30 s into a window


@pytest.fixture(autouse=True)
def frozen_clock(monkeypatch):
    cache.clear()
    monkeypatch.setattr("edge.rate.time.time", lambda: FROZEN)
    yield
    cache.clear()


def test_credential_limit_comes_from_the_plan(mcp, cast):
    plan = cast.plan
    plan.requests_per_minute = 3
    plan.save()
    key, other_key = cast.key(cast.member), cast.key(cast.owner)
    for _ in range(3):
        mcp.ok(key, "list_projects")
    error = mcp.error(key, "list_projects")
    assert error["code"] == "rate_limited" and error["retry_after"] == 30
    assert "3 tool calls" in error["message"]
    mcp.ok(other_key, "list_projects")  # each credential has its own counter


def test_ip_limit_answers_429_before_looking_at_the_credential(mcp, cast, settings):
    settings.RATE_LIMIT_PER_IP_PER_MINUTE = 2
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    headers = {
        "Accept": "application/json, text/event-stream",
        "Authorization": "Bearer kb_nonsense000000000000000000",
    }
    statuses = [httpx2.post(mcp.url, json=body, headers=headers).status_code for _ in range(3)]
    assert statuses == [401, 401, 429]
    response = httpx2.post(mcp.url, json=body, headers=headers)
    assert response.status_code == 429 and response.headers["retry-after"] == "30"
    assert response.json()["error"] == "rate_limited"


def test_a_client_cannot_escape_the_ip_limit_by_inventing_forwarded_addresses(mcp, cast, settings):
    settings.RATE_LIMIT_PER_IP_PER_MINUTE = 2
    # What settings.py makes of TRUST_X_FORWARDED_FOR=true, the switch deployments already use.
    settings.TRUST_X_FORWARDED_FOR = True
    settings.TRUSTED_PROXY_COUNT = 1
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}

    def post(invented: str) -> int:
        headers = {
            "Accept": "application/json, text/event-stream",
            "Authorization": "Bearer kb_nonsense000000000000000000",
            # What the client sent, then what the one trusted proxy appended.
            "X-Forwarded-For": f"{invented}, 198.51.100.9",
        }
        return httpx2.post(mcp.url, json=body, headers=headers).status_code

    assert [post(f"192.0.2.{i}") for i in range(3)] == [401, 401, 429]
    # Another client behind the same proxy has its own allowance.
    headers = {
        "Accept": "application/json, text/event-stream",
        "Authorization": "Bearer kb_nonsense000000000000000000",
        "X-Forwarded-For": "198.51.100.10",
    }
    assert httpx2.post(mcp.url, json=body, headers=headers).status_code == 401
