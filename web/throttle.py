"""Counters of failed attempts (sign-in, reset requests) per account and per client address.

Kept in the cache (Redis in production), so every web node sees the same counts. Counts live for
one window from the first failure; past the limit the attempt is refused before the password is
even checked. A cache that is down lets attempts through (logged) rather than locking everyone out.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from mcp_gateway.ratelimit import forwarded_client

log = logging.getLogger(__name__)


def client_address(request: HttpRequest) -> str:
    # The same reading of X-Forwarded-For as the /mcp limit: only what the trusted proxies appended.
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    return forwarded_client(
        str(request.META.get("REMOTE_ADDR") or "unknown"), [str(forwarded)] if forwarded else []
    )


def _subject(name: str, kind: str, value: str) -> str:
    # Hashed: addresses and emails stay out of cache key names (and within any key-length limit).
    return f"throttle:{name}:{kind}:{hashlib.sha256(value.lower().encode()).hexdigest()[:32]}"


class Throttle:
    """At most `limits[kind]` failures per fixed window of `window` seconds for each subject, e.g.
    {"account": email, "address": client address}. Counters are atomic cache increments."""

    def __init__(self, name: str, subjects: dict[str, str], limits: dict[str, int], window: int) -> None:
        self.window = window
        self.subjects = {kind: _subject(name, kind, value) for kind, value in subjects.items()}
        self.limits = limits

    def _window(self, now: float) -> tuple[int, int]:
        """(index of the current window, seconds until it ends)."""
        index = int(now // self.window)
        return index, max(1, math.ceil((index + 1) * self.window - now))

    def retry_after(self, now: float | None = None) -> int:
        """Seconds until the attempt may be made again; 0 when no subject is over its limit."""
        index, remaining = self._window(time.time() if now is None else now)
        keys = {f"{subject}:{index}": kind for kind, subject in self.subjects.items()}
        try:
            counts = cache.get_many(list(keys))
        except Exception:
            log.exception("throttle cache unavailable; allowing the attempt")
            return 0
        over = any(int(counts.get(key, 0)) >= self.limits[kind] for key, kind in keys.items())
        return remaining if over else 0

    def fail(self, now: float | None = None) -> None:
        """Count one failed attempt against every subject."""
        index, remaining = self._window(time.time() if now is None else now)
        try:
            for subject in self.subjects.values():
                key = f"{subject}:{index}"
                cache.add(key, 0, timeout=remaining + 5)
                cache.incr(key)
        except Exception:
            log.exception("throttle cache unavailable; failure not counted")

    def forgive(self, kind: str, now: float | None = None) -> None:
        """Forget the failures of one subject (an account after its owner signed in)."""
        index, _ = self._window(time.time() if now is None else now)
        try:
            cache.delete(f"{self.subjects[kind]}:{index}")
        except Exception:
            log.exception("throttle cache unavailable")


def login_throttle(request: HttpRequest, email: str) -> Throttle:
    return Throttle(
        "login",
        {"account": email.strip(), "address": client_address(request)},
        {"account": settings.LOGIN_FAILURES_PER_ACCOUNT, "address": settings.LOGIN_FAILURES_PER_ADDRESS},
        settings.LOGIN_FAILURE_WINDOW_SECONDS,
    )


def reset_throttle(request: HttpRequest, email: str) -> Throttle:
    # Each reset request sends mail: a few per address and account an hour is plenty for a person.
    return Throttle(
        "reset",
        {"account": email.strip(), "address": client_address(request)},
        {"account": 3, "address": 10},
        3600,
    )


def wait_words(seconds: int) -> str:
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"
