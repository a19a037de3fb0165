"""Rate limits: per IP before the credential lookup (HTTP 429), per credential from the plan
(rate_limited tool result), both with a retry time."""

from __future__ import annotations

import asyncio
import importlib

import httpx2
import pytest
from django.core.cache import cache

from billing import ratelimit
from mcp_gateway.ratelimit import client_ip

FROZEN = 1_800_000_030.0  # 30 s into a window


@pytest.fixture(autouse=True)
def frozen_clock(monkeypatch):
    cache.clear()
    monkeypatch.setattr("billing.ratelimit.time.time", lambda: FROZEN)
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


def test_window_resets():
    assert asyncio.run(ratelimit.hit("t", 1, now=60.0)).allowed
    blocked = asyncio.run(ratelimit.hit("t", 1, now=100.0))
    assert not blocked.allowed and blocked.retry_after == 20
    assert asyncio.run(ratelimit.hit("t", 1, now=121.0)).allowed


def test_zero_means_unlimited():
    assert all(asyncio.run(ratelimit.hit("u", 0)).allowed for _ in range(5))


# --- the client address behind proxies -------------------------------------------------------------


def scope(peer: str, *forwarded: str) -> dict:
    return {"client": (peer, 5000), "headers": [(b"x-forwarded-for", value.encode()) for value in forwarded]}


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        # No trusted proxy: the header is the client's own text and is ignored.
        (0, ["198.51.100.9"], "10.0.0.2"),
        # One proxy appends the address it saw; anything left of it the client wrote.
        (1, ["198.51.100.9"], "198.51.100.9"),
        (1, ["1.1.1.1, 198.51.100.9"], "198.51.100.9"),
        (1, ["1.1.1.1", "198.51.100.9"], "198.51.100.9"),  # a second header line continues the list
        # Two proxies (CDN, then a load balancer): the CDN's entry, not the load balancer's.
        (2, ["1.1.1.1, 198.51.100.9, 203.0.113.4"], "198.51.100.9"),
        (2, ["198.51.100.9"], "198.51.100.9"),  # fewer entries than proxies: the outermost one seen
        (1, ["198.51.100.9:4711"], "198.51.100.9"),
        (1, ["[2001:db8::7]:443"], "2001:db8::7"),
        (1, ["2001:db8::7"], "2001:db8::7"),
        # Nothing usable: the connection's peer.
        (1, [], "10.0.0.2"),
        (1, ["1.1.1.1, unknown"], "10.0.0.2"),
        (1, ["1.1.1.1, "], "10.0.0.2"),
    ],
)
def test_the_client_address_is_the_entry_the_farthest_trusted_proxy_appended(
    settings, proxies, forwarded, expected
):
    settings.TRUSTED_PROXY_COUNT = proxies
    assert client_ip(scope("10.0.0.2", *forwarded)) == expected


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


@pytest.mark.parametrize("module", ["web.oauth.views", "web.throttle"])
def test_oauth_registration_and_sign_in_limits_read_the_client_address_the_same_way(rf, settings, module):
    client_address = importlib.import_module(module).client_address
    settings.TRUST_X_FORWARDED_FOR = True
    settings.TRUSTED_PROXY_COUNT = 1
    request = rf.post("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="192.0.2.1, 198.51.100.9")
    assert client_address(request) == "198.51.100.9"
    settings.TRUSTED_PROXY_COUNT = 0
    assert client_address(request) == "10.0.0.2"
