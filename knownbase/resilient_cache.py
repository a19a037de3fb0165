"""Django's Redis cache, degraded instead of failing while Redis is unreachable.

What the cache holds here is never a record: rate-limit counters, query vectors, a flag that a
flush is scheduled. So while Redis is down (a connection error or timeout, or the breaker in
knownbase.breaker open after one), every operation still answers:

- reads miss, except what this process itself counted meanwhile (below);
- writes (set, set_many, touch) are dropped;
- add, incr and decr count in a per-process memory cache, and get, get_many, has_key and delete
  see those counts: edge.rate's limits then hold per process (a limit of N admits up to N per web
  process), rather than failing fully open.

When the breaker lets a probe through and Redis answers, the shared counters are used again; the
local ones are simply no longer read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import redis
from asgiref.sync import sync_to_async
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache

from knownbase import breaker

# What "Redis is not there" looks like through redis-py; any other error (a wrong type, a bug) is
# raised as before. A read-only replica or a full server refuse writes the same way.
REDIS_ERRORS: tuple[type[BaseException], ...] = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    redis.exceptions.ReadOnlyError,
    redis.exceptions.OutOfMemoryError,
    OSError,
)
# Counters kept per process while Redis is down; the oldest third is culled past this many.
LOCAL_MAX_ENTRIES = 10_000

T = TypeVar("T")


class ResilientRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        # Django makes a backend per thread; LocMemCache instances of one name share their storage,
        # so every thread of the process counts in the same place.
        self.local = LocMemCache(
            f"knownbase-redis-fallback:{server}",
            {
                "TIMEOUT": params.get("TIMEOUT", 300),
                "KEY_PREFIX": params.get("KEY_PREFIX", ""),
                "VERSION": params.get("VERSION", 1),
                "KEY_FUNCTION": params.get("KEY_FUNCTION"),
                "OPTIONS": {"MAX_ENTRIES": LOCAL_MAX_ENTRIES},
            },
        )

    def guard(self, operation: Callable[[], T], degraded: Callable[[], T]) -> T:
        """`operation()` (something that talks to Redis), or `degraded()` when Redis is known to be
        down or fails now. Public for code that keeps its own Redis client on the same server
        (memory.notes.reinforcement), which may not import this module across the layers."""
        if not breaker.redis.allow():
            return degraded()
        try:
            result = operation()
        except REDIS_ERRORS as error:
            breaker.redis.failed(error)
            return degraded()
        breaker.redis.succeeded()
        return result

    # ---------------------------------------------------------------------------------- reads

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self.guard(
            lambda: super(ResilientRedisCache, self).get(key, default, version),
            lambda: self.local.get(key, default, version),
        )

    def get_many(self, keys: Iterable[Any], version: int | None = None) -> dict[Any, Any]:
        keys = list(keys)
        return self.guard(
            lambda: super(ResilientRedisCache, self).get_many(keys, version),
            lambda: self.local.get_many(keys, version),
        )

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self.guard(
            lambda: bool(super(ResilientRedisCache, self).has_key(key, version)),
            lambda: self.local.has_key(key, version),
        )

    # --------------------------------------------------------------------------------- writes

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        self.guard(lambda: super(ResilientRedisCache, self).set(key, value, timeout, version), _nothing)

    def set_many(
        self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> list[Any]:
        # Django's contract: the keys that were not stored.
        return self.guard(
            lambda: list(super(ResilientRedisCache, self).set_many(data, timeout, version)),
            lambda: list(data),
        )

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self.guard(
            lambda: bool(super(ResilientRedisCache, self).touch(key, timeout, version)), lambda: False
        )

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self.guard(
            lambda: bool(super(ResilientRedisCache, self).delete(key, version)),
            lambda: self.local.delete(key, version),
        )

    def delete_many(self, keys: Iterable[Any], version: int | None = None) -> None:
        keys = list(keys)
        self.guard(
            lambda: super(ResilientRedisCache, self).delete_many(keys, version),
            lambda: self.local.delete_many(keys, version),
        )

    def clear(self) -> None:
        self.local.clear()
        self.guard(lambda: super(ResilientRedisCache, self).clear(), _nothing)

    # ------------------------------------------------------------------------------- counters

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self.guard(
            lambda: bool(super(ResilientRedisCache, self).add(key, value, timeout, version)),
            lambda: self.local.add(key, value, timeout, version),
        )

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        return self.guard(
            lambda: int(super(ResilientRedisCache, self).incr(key, delta, version)),
            lambda: self._local_incr(key, delta, version),
        )

    def _local_incr(self, key: Any, delta: int, version: int | None) -> int:
        # The key may have been added in Redis just before it went away: count from zero here
        # rather than raise, so the caller's limit still holds per process.
        self.local.add(key, 0, version=version)
        return int(self.local.incr(key, delta, version))

    # ------------------------------------------------------------------------------------ async
    # Django's RedisCache has no asynchronous methods of its own; BaseCache's aincr is a get and a
    # set (not atomic, and it resets the key's expiry). These run the guarded sync methods in a
    # worker thread instead: the Redis client is thread-safe, so no need for the one shared thread.

    async def aget(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return await sync_to_async(self.get, thread_sensitive=False)(key, default, version)

    async def aget_many(self, keys: Iterable[Any], version: int | None = None) -> dict[Any, Any]:
        return await sync_to_async(self.get_many, thread_sensitive=False)(list(keys), version)

    async def ahas_key(self, key: Any, version: int | None = None) -> bool:
        return await sync_to_async(self.has_key, thread_sensitive=False)(key, version)

    async def aset(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> None:
        await sync_to_async(self.set, thread_sensitive=False)(key, value, timeout, version)

    async def aset_many(
        self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> list[Any]:
        return await sync_to_async(self.set_many, thread_sensitive=False)(data, timeout, version)

    async def atouch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return await sync_to_async(self.touch, thread_sensitive=False)(key, timeout, version)

    async def adelete(self, key: Any, version: int | None = None) -> bool:
        return await sync_to_async(self.delete, thread_sensitive=False)(key, version)

    async def adelete_many(self, keys: Iterable[Any], version: int | None = None) -> None:
        await sync_to_async(self.delete_many, thread_sensitive=False)(list(keys), version)

    async def aclear(self) -> None:
        await sync_to_async(self.clear, thread_sensitive=False)()

    async def aadd(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        return await sync_to_async(self.add, thread_sensitive=False)(key, value, timeout, version)

    async def aincr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        return await sync_to_async(self.incr, thread_sensitive=False)(key, delta, version)

    async def adecr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        return await sync_to_async(self.incr, thread_sensitive=False)(key, -delta, version)


def _nothing() -> None:
    return None
