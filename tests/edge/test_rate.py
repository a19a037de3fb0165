"""The one request counter: fixed windows per scope, a limit per call, sync and async callers
counting together, and a cache that fails never blocking anyone."""

from __future__ import annotations

import asyncio

import pytest
from django.core.cache import cache

from edge import rate

MOMENT = 1_800_000_030.0  # 30 s into a minute window


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def test_the_limit_admits_exactly_that_many_in_a_window():
    assert [rate.hit("api_key:kb_a", 3, now=MOMENT).allowed for _ in range(4)] == [True, True, True, False]
    refused = rate.hit("api_key:kb_a", 3, now=MOMENT)
    assert (refused.allowed, refused.limit, refused.retry_after) == (False, 3, 30)
    assert rate.hit("api_key:kb_b", 3, now=MOMENT).allowed  # another scope has its own count


def test_sync_and_async_share_one_count():
    assert rate.hit("api_key:kb_a", 3, now=MOMENT).allowed
    assert asyncio.run(rate.ahit("api_key:kb_a", 3, now=MOMENT)).allowed
    assert rate.hit("api_key:kb_a", 3, now=MOMENT).allowed
    refused = asyncio.run(rate.ahit("api_key:kb_a", 3, now=MOMENT))
    assert (refused.allowed, refused.retry_after) == (False, 30)


def test_a_new_window_starts_a_new_count():
    assert rate.hit("t", 1, now=60.0).allowed
    blocked = rate.hit("t", 1, now=100.0)
    assert not blocked.allowed and blocked.retry_after == 20
    assert rate.hit("t", 1, now=120.0).allowed  # the next window begins on the minute


def test_a_window_of_its_own_length():
    assert rate.hit("reset", 1, window=3600, now=3600.0).allowed
    blocked = rate.hit("reset", 1, window=3600, now=3600.0 + 1800)
    assert not blocked.allowed and blocked.retry_after == 1800
    assert rate.hit("reset", 1, window=3600, now=7200.0).allowed


def test_retry_after_rounds_up_and_is_never_zero():
    rate.hit("t", 1, now=119.5)
    assert rate.hit("t", 1, now=119.5).retry_after == 1
    rate.hit("u", 1, now=90.25)
    assert rate.hit("u", 1, now=90.25).retry_after == 30


def test_zero_means_unlimited_and_counts_nothing():
    assert all(rate.hit("u", 0, now=MOMENT).allowed for _ in range(5))
    assert rate.peek("u", 1, now=MOMENT).allowed and rate.peek_next("u", 1, now=MOMENT).allowed


def test_peeking_counts_nothing():
    rate.hit("p", 2, now=MOMENT)
    rate.hit("p", 2, now=MOMENT)
    assert rate.peek("p", 2, now=MOMENT).allowed  # at the limit, not past it
    assert not rate.peek_next("p", 2, now=MOMENT).allowed  # one more would be past it
    assert rate.peek_next("p", 2, now=MOMENT).retry_after == 30
    assert rate.peek("p", 2, now=MOMENT).allowed  # still two: peeks did not count
    assert not rate.hit("p", 2, now=MOMENT).allowed
    assert not rate.peek("p", 2, now=MOMENT).allowed


def test_forgetting_clears_the_window_s_count():
    rate.hit("f", 1, now=MOMENT)
    assert not rate.peek_next("f", 1, now=MOMENT).allowed
    rate.forget("f", now=MOMENT)
    assert rate.peek_next("f", 1, now=MOMENT).allowed


def test_a_cache_that_fails_lets_requests_through(monkeypatch):
    def broken(*args, **kwargs):
        raise ConnectionError("redis down")

    for name in ("add", "incr", "get", "delete"):
        monkeypatch.setattr(cache, name, broken)
    assert all(rate.hit("api_key:kb_a", 1, now=MOMENT).allowed for _ in range(3))
    assert rate.peek("api_key:kb_a", 1, now=MOMENT).allowed
    assert rate.peek_next("api_key:kb_a", 1, now=MOMENT).allowed
    rate.forget("api_key:kb_a", now=MOMENT)  # no exception
