"""The one request counter: fixed windows counted in the cache (Redis in production, process memory
embedded), shared by every limit of every entry point — the per-address limits in front of /mcp,
REST and OAuth registration, the plan's per-credential rate, and the sign-in and reset throttles.

Every node shares the counters through Redis, so a limit holds across web nodes. A cache that is
down never blocks traffic: the counter fails open and logs.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass

from django.core.cache import cache

log = logging.getLogger(__name__)

WINDOW_SECONDS = 60
# Counters outlive their window a little so a request at its very end still finds its count.
_GRACE_SECONDS = 5


@dataclass(frozen=True)
class Decision:
    allowed: bool
    limit: int
    retry_after: int  # seconds until the window resets (0 when allowed)


@dataclass(frozen=True)
class _Window:
    key: str
    remaining: int  # whole seconds until the window ends, at least 1


def _window(scope: str, seconds: int, now: float | None) -> _Window:
    moment = time.time() if now is None else now
    index = int(moment // seconds)
    return _Window(f"rl:{scope}:{index}", max(1, math.ceil((index + 1) * seconds - moment)))


def _decide(count: int, limit: int, window: _Window) -> Decision:
    if count <= limit:
        return Decision(True, limit, 0)
    return Decision(False, limit, window.remaining)


def hit(scope: str, limit: int, *, window: int = WINDOW_SECONDS, now: float | None = None) -> Decision:
    """Count one request for `scope` and say whether it is within `limit` per window; a limit of 0
    or less is no limit (nothing is counted)."""
    if limit <= 0:
        return Decision(True, limit, 0)
    current = _window(scope, window, now)
    try:
        cache.add(current.key, 0, timeout=current.remaining + _GRACE_SECONDS)
        count = cache.incr(current.key)
    except Exception:
        log.exception("rate counter cache unavailable; allowing the request")
        return Decision(True, limit, 0)
    return _decide(count, limit, current)


async def ahit(scope: str, limit: int, *, window: int = WINDOW_SECONDS, now: float | None = None) -> Decision:
    """`hit` for asynchronous callers (the /mcp app), counting in the same windows."""
    if limit <= 0:
        return Decision(True, limit, 0)
    current = _window(scope, window, now)
    try:
        await cache.aadd(current.key, 0, timeout=current.remaining + _GRACE_SECONDS)
        count = await cache.aincr(current.key)
    except Exception:
        log.exception("rate counter cache unavailable; allowing the request")
        return Decision(True, limit, 0)
    return _decide(count, limit, current)


def peek(scope: str, limit: int, *, window: int = WINDOW_SECONDS, now: float | None = None) -> Decision:
    """Whether `scope` is already past `limit` this window, without counting a request."""
    return _peek(scope, limit, window, now, ahead=0)


def peek_next(scope: str, limit: int, *, window: int = WINDOW_SECONDS, now: float | None = None) -> Decision:
    """Whether one more request for `scope` would still be within `limit` this window, without
    counting it (for counts of failures, checked before the attempt that may fail)."""
    return _peek(scope, limit, window, now, ahead=1)


def _peek(scope: str, limit: int, window: int, now: float | None, *, ahead: int) -> Decision:
    if limit <= 0:
        return Decision(True, limit, 0)
    current = _window(scope, window, now)
    try:
        count = int(cache.get(current.key) or 0)
    except Exception:
        log.exception("rate counter cache unavailable; allowing the request")
        return Decision(True, limit, 0)
    return _decide(count + ahead, limit, current)


def forget(scope: str, *, window: int = WINDOW_SECONDS, now: float | None = None) -> None:
    """Drop this window's count for `scope`."""
    try:
        cache.delete(_window(scope, window, now).key)
    except Exception:
        log.exception("rate counter cache unavailable; count not forgotten")
