"""/api requests without a valid credential are limited per client address: past the limit the address
gets 429 rate_limited with Retry-After, before any credential is looked up."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from django.core.cache import cache

from tests.api.conftest import Api

LIMIT = 3
# One moment for the whole test, 20 s into a window: the counts cannot roll over mid-test.
NOW = 1_800_000_000.0 - 40


@pytest.fixture(autouse=True)
def limited(settings, monkeypatch):
    settings.API_ANONYMOUS_PER_IP_PER_MINUTE = LIMIT
    monkeypatch.setattr("edge.rate.time", SimpleNamespace(time=lambda: NOW))
    cache.clear()
    yield
    cache.clear()


def from_address(api: Api, address: str, key: str | None = None):
    extra: dict[str, Any] = {"REMOTE_ADDR": address}
    if key:
        extra["HTTP_AUTHORIZATION"] = f"Bearer {key}"
    return api.client.get("/api/v1/projects", **extra)


def test_past_the_limit_an_address_gets_429_with_retry_after(api):
    for _ in range(LIMIT):
        assert from_address(api, "203.0.113.7").status_code == 401
    refused = from_address(api, "203.0.113.7")
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "rate_limited"
    assert refused["Retry-After"] == "40" and refused.json()["error"]["retry_after"] == 40


def test_wrong_credentials_count_and_then_are_not_even_looked_up(api, cast, monkeypatch):
    for _ in range(LIMIT):
        assert from_address(api, "203.0.113.8", key="kb_guess" + "x" * 40).status_code == 401
    assert from_address(api, "203.0.113.8", key="kb_guess" + "y" * 40).status_code == 429
    looked_up = []
    monkeypatch.setattr(
        "accounts.models.ApiKey.authenticate", classmethod(lambda cls, raw, now=None: looked_up.append(raw))
    )
    # Even a real key waits out the minute: telling it apart would take the look-up.
    assert from_address(api, "203.0.113.8", key=cast.key(cast.member)).status_code == 429
    assert looked_up == []


def test_requests_with_a_valid_credential_do_not_count(api, cast):
    key = cast.key(cast.member)
    for _ in range(LIMIT * 3):
        assert from_address(api, "203.0.113.9", key=key).status_code == 200
    assert from_address(api, "203.0.113.9").status_code == 401


def test_each_address_has_its_own_count(api):
    for _ in range(LIMIT + 1):
        from_address(api, "203.0.113.10")
    assert from_address(api, "203.0.113.10").status_code == 429
    assert from_address(api, "198.51.100.4").status_code == 401


def test_zero_turns_the_limit_off(api, settings):
    settings.API_ANONYMOUS_PER_IP_PER_MINUTE = 0
    for _ in range(LIMIT * 3):
        assert from_address(api, "203.0.113.11").status_code == 401
