"""The request counter's two doors: the gateway's async `hit` and the REST API's `hit_sync` count in
the same windows, so one credential has one limit across MCP and REST."""

from __future__ import annotations

import asyncio

import pytest
from django.core.cache import cache

from billing import ratelimit

MOMENT = 1_800_000_030.0  # 30 s into a window


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def test_sync_and_async_share_one_count():
    assert ratelimit.hit_sync("api_key:kb_a", 3, now=MOMENT).allowed
    assert asyncio.run(ratelimit.hit("api_key:kb_a", 3, now=MOMENT)).allowed
    assert ratelimit.hit_sync("api_key:kb_a", 3, now=MOMENT).allowed
    refused = asyncio.run(ratelimit.hit("api_key:kb_a", 3, now=MOMENT))
    assert (refused.allowed, refused.retry_after) == (False, 30)
    assert ratelimit.hit_sync("api_key:kb_b", 3, now=MOMENT).allowed  # another credential


def test_a_new_window_starts_a_new_count_and_zero_means_unlimited():
    for _ in range(2):
        ratelimit.hit_sync("api_key:kb_a", 2, now=MOMENT)
    assert not ratelimit.hit_sync("api_key:kb_a", 2, now=MOMENT).allowed
    assert ratelimit.hit_sync("api_key:kb_a", 2, now=MOMENT + 60).allowed
    assert all(ratelimit.hit_sync("api_key:kb_c", 0, now=MOMENT).allowed for _ in range(5))


def test_a_cache_that_fails_lets_requests_through(monkeypatch):
    def broken(*args, **kwargs):
        raise ConnectionError("redis down")

    monkeypatch.setattr(cache, "add", broken)
    assert ratelimit.hit_sync("api_key:kb_a", 1, now=MOMENT).allowed
