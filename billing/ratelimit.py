"""Fixed-window request counters in the cache (Redis in production, process memory embedded).

Every node shares the counters through Redis, so the limit holds across web nodes. A cache that is
down never blocks traffic: the limiter fails open and logs.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from django.core.cache import cache

log = logging.getLogger(__name__)

WINDOW_SECONDS = 60


@dataclass(frozen=True)
class Decision:
    allowed: bool
    limit: int
    retry_after: int  # seconds until the window resets (0 when allowed)


async def hit(scope: str, limit: int, now: float | None = None) -> Decision:
    """Count one request for `scope` and say whether it is within `limit` per minute."""
    if limit <= 0:
        return Decision(True, limit, 0)
    moment = time.time() if now is None else now
    key = _key(scope, moment)
    try:
        await cache.aadd(key, 0, timeout=WINDOW_SECONDS + 5)
        count = await cache.aincr(key)
    except Exception:
        log.exception("rate limiter cache unavailable; allowing the request")
        return Decision(True, limit, 0)
    return _decide(count, limit, moment)


def hit_sync(scope: str, limit: int, now: float | None = None) -> Decision:
    """`hit` for synchronous callers (the REST API's views), counting in the same windows."""
    if limit <= 0:
        return Decision(True, limit, 0)
    moment = time.time() if now is None else now
    key = _key(scope, moment)
    try:
        cache.add(key, 0, timeout=WINDOW_SECONDS + 5)
        count = cache.incr(key)
    except Exception:
        log.exception("rate limiter cache unavailable; allowing the request")
        return Decision(True, limit, 0)
    return _decide(count, limit, moment)


def peek_sync(scope: str, limit: int, now: float | None = None) -> Decision:
    """Whether `scope` is already past `limit` this minute, without counting a request."""
    if limit <= 0:
        return Decision(True, limit, 0)
    moment = time.time() if now is None else now
    try:
        count = int(cache.get(_key(scope, moment)) or 0)
    except Exception:
        log.exception("rate limiter cache unavailable; allowing the request")
        return Decision(True, limit, 0)
    return _decide(count, limit, moment)


def _key(scope: str, moment: float) -> str:
    return f"rl:{scope}:{int(moment // WINDOW_SECONDS)}"


def _decide(count: int, limit: int, moment: float) -> Decision:
    if count <= limit:
        return Decision(True, limit, 0)
    window = int(moment // WINDOW_SECONDS)
    retry_after = max(1, int((window + 1) * WINDOW_SECONDS - moment))
    return Decision(False, limit, retry_after)
