"""The Redis cache backend while Redis is unreachable: reads miss, writes are dropped, counters
count per process (so limits hold per process), the async twins do the same, a dead Redis is asked
once per retry period, and a programming error still surfaces."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest
import redis
from django.core.cache import cache
from django.core.cache.backends.redis import RedisCacheClient

from edge import rate
from knownbase import breaker
from knownbase.resilient_cache import ResilientRedisCache
from tests.knownbase.test_settings import settings_value
from tests.live_mcp import free_port
from tests.redis_server import redis_server

BACKEND = "knownbase.resilient_cache.ResilientRedisCache"
OPTIONS = {"socket_connect_timeout": 0.25, "socket_timeout": 0.25}


def _dead_url() -> str:
    return f"redis://127.0.0.1:{free_port()}/0"  # a free port: nothing listens there


@pytest.fixture
def dead() -> ResilientRedisCache:
    return ResilientRedisCache(_dead_url(), {"OPTIONS": OPTIONS})


def test_reads_miss_and_writes_are_dropped(dead):
    assert dead.set("vec:a", [0.1, 0.2]) is None
    assert dead.get("vec:a") is None
    assert dead.get("vec:a", "fallback") == "fallback"
    assert dead.get_many(["vec:a", "vec:b"]) == {}
    assert dead.set_many({"vec:a": 1, "vec:b": 2}) == ["vec:a", "vec:b"]  # what was not stored
    assert dead.touch("vec:a") is False
    assert dead.has_key("vec:a") is False
    assert breaker.redis.is_open


def test_counters_count_in_the_process(dead):
    assert dead.add("rl:x", 0, timeout=60) is True
    assert dead.add("rl:x", 0, timeout=60) is False
    assert [dead.incr("rl:x") for _ in range(3)] == [1, 2, 3]
    assert dead.get("rl:x") == 3 and dead.has_key("rl:x")
    assert dead.get_many(["rl:x", "rl:y"]) == {"rl:x": 3}
    assert dead.decr("rl:x") == 2
    assert dead.delete("rl:x") is True and dead.get("rl:x") is None
    # A key added in Redis just before it went away: counted from zero here rather than an error.
    assert dead.incr("rl:added-in-redis") == 1


def test_every_thread_of_the_process_counts_in_one_place():
    url = _dead_url()
    first, second = (ResilientRedisCache(url, {"OPTIONS": OPTIONS}) for _ in range(2))  # one per thread
    first.add("rl:shared", 0)
    first.incr("rl:shared")
    assert second.incr("rl:shared") == 2


def test_the_async_twins_degrade_alike(dead):
    async def run() -> list[object]:
        return [
            await dead.aset("vec:a", [1.0]),
            await dead.aget("vec:a"),
            await dead.aget_many(["vec:a"]),
            await dead.aadd("rl:a", 0, timeout=60),
            await dead.aincr("rl:a"),
            await dead.aincr("rl:a"),
            await dead.adecr("rl:a"),
            await dead.ahas_key("rl:a"),
            await dead.adelete("rl:a"),
            await dead.aget("rl:a"),
        ]

    assert asyncio.run(run()) == [None, None, {}, True, 1, 2, 1, True, True, None]


def test_a_dead_redis_is_asked_once_per_retry_period(dead, monkeypatch):
    attempts = []
    original = RedisCacheClient.get

    def counted(self, key, default):
        attempts.append(key)
        return original(self, key, default)

    monkeypatch.setattr(RedisCacheClient, "get", counted)
    for _ in range(20):
        assert dead.get("vec:a") is None
    assert len(attempts) == 1  # then the breaker answered


def test_an_error_that_is_no_outage_is_raised(dead, monkeypatch):
    def wrong_type(self, key, default):
        raise redis.exceptions.ResponseError("WRONGTYPE Operation against a key holding the wrong kind")

    monkeypatch.setattr(RedisCacheClient, "get", wrong_type)
    with pytest.raises(redis.exceptions.ResponseError):
        dead.get("vec:a")
    assert not breaker.redis.is_open


def test_rate_limits_hold_per_process_and_warn_once(settings, caplog):
    settings.CACHES = {"default": {"BACKEND": BACKEND, "LOCATION": _dead_url(), "OPTIONS": OPTIONS}}
    with caplog.at_level(logging.WARNING):
        decisions = [rate.hit("api_anon:198.18.0.1", 3).allowed for _ in range(5)]
        assert asyncio.run(rate.ahit("api_anon:198.18.0.1", 3)).allowed is False
        assert rate.peek("api_anon:198.18.0.1", 3).allowed is False
    assert decisions == [True, True, True, False, False]
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and warnings[0].startswith("Redis unreachable")


@pytest.mark.slow
def test_counters_go_back_to_redis_when_it_returns(settings, tmp_path, caplog):
    settings.REDIS_RETRY_SECONDS = 1
    with redis_server(tmp_path) as server:
        settings.CACHES = {"default": {"BACKEND": BACKEND, "LOCATION": server.url, "OPTIONS": OPTIONS}}
        shared = redis.Redis.from_url(server.url)
        assert rate.hit("login:a", 5).allowed
        assert any(b"rl:login:a" in key for key in shared.keys("*"))
        server.stop()
        assert rate.hit("login:a", 5).allowed  # counted in the process now
        assert breaker.redis.is_open
        server.start()
        deadline = time.monotonic() + 60
        with caplog.at_level(logging.WARNING, logger="accounts.breaker"):
            while breaker.redis.is_open and time.monotonic() < deadline:
                cache.get("probe")
                time.sleep(0.1)
        assert not breaker.redis.is_open
        assert "Redis reachable again; degraded mode over" in caplog.messages
        cache.set("vec:back", [1.0], 60)
        assert cache.get("vec:back") == [1.0]
        assert shared.exists(cache.make_key("vec:back"))


@pytest.mark.slow
def test_redis_url_selects_the_resilient_backend_with_short_timeouts():
    expression = (
        "[s.CACHES['default']['BACKEND'], s.CACHES['default']['OPTIONS'], s.CELERY_TASK_PUBLISH_RETRY, "
        "s.CELERY_BROKER_TRANSPORT_OPTIONS['max_retries'], s.SESSION_ENGINE]"
    )
    assert settings_value(expression, REDIS_URL="redis://127.0.0.1:6379/3", REDIS_TIMEOUT_MS="100") == [
        BACKEND,
        {"socket_connect_timeout": 0.1, "socket_timeout": 0.1},
        False,
        0,
        "django.contrib.sessions.backends.db",
    ]
    # Without Redis: process memory, and sessions in the database all the same.
    assert settings_value("[s.CACHES['default']['BACKEND'], s.SESSION_ENGINE]") == [
        "django.core.cache.backends.locmem.LocMemCache",
        "django.contrib.sessions.backends.db",
    ]
