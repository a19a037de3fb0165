"""Counters of failed attempts (sign-in, reset requests) per account and per client address.

Counted by the edge's one counter (edge.rate: fixed windows in the cache, so every web node sees the
same counts, and a cache that is down lets attempts through rather than locking everyone out). Past
the limit the attempt is refused before the password is even checked.
"""

from __future__ import annotations

import hashlib
import math

from django.conf import settings
from django.http import HttpRequest

from edge import rate
from edge.client_address import client_address


def _subject(name: str, kind: str, value: str) -> str:
    # Hashed: addresses and emails stay out of cache key names (and within any key-length limit).
    return f"throttle:{name}:{kind}:{hashlib.sha256(value.lower().encode()).hexdigest()[:32]}"


class Throttle:
    """At most `limits[kind]` failures per fixed window of `window` seconds for each subject, e.g.
    {"account": email, "address": client address}."""

    def __init__(self, name: str, subjects: dict[str, str], limits: dict[str, int], window: int) -> None:
        self.window = window
        self.subjects = {kind: _subject(name, kind, value) for kind, value in subjects.items()}
        self.limits = limits

    def retry_after(self, now: float | None = None) -> int:
        """Seconds until the attempt may be made again; 0 when no subject is over its limit."""
        waits = [
            rate.peek_next(subject, self.limits[kind], window=self.window, now=now).retry_after
            for kind, subject in self.subjects.items()
        ]
        return max(waits, default=0)

    def fail(self, now: float | None = None) -> None:
        """Count one failed attempt against every subject."""
        for kind, subject in self.subjects.items():
            rate.hit(subject, self.limits[kind], window=self.window, now=now)

    def forgive(self, kind: str, now: float | None = None) -> None:
        """Forget the failures of one subject (an account after its owner signed in)."""
        rate.forget(self.subjects[kind], window=self.window, now=now)


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
