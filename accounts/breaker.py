"""A circuit breaker: after a dependency failed, stop asking it for a while.

A dependency that is gone (Redis, an embeddings provider) would otherwise cost every caller its own
attempt — a connection timeout, an HTTP provider's retries. With the breaker open, callers go
straight to their degraded path (a local counter, a cache miss, the task run here, keyword search)
and only one call per retry period probes whether the dependency is back. One warning is logged per
outage, and one line when it ends. It sits in the lowest app (like accounts.scheduling) so the
domain and the configuration share it; knownbase.breaker holds the one for Redis.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)


class CircuitBreaker:
    """Closed (calls go through) until `failed()`; then open for `retry_seconds()`, after which one
    caller at a time is let through to probe. `succeeded()` closes it again."""

    def __init__(
        self,
        name: str,
        retry_seconds: Callable[[], float],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.name = name
        self._retry_seconds = retry_seconds
        self.clock = clock
        self._lock = threading.Lock()
        self._open = False
        self._next_probe = 0.0

    @property
    def is_open(self) -> bool:
        return self._open

    def allow(self) -> bool:
        """Whether the caller should try the dependency now (closed, or this caller is the probe)."""
        if not self._open:
            return True
        with self._lock:
            now = self.clock()
            if not self._open or now >= self._next_probe:
                # The others keep degrading until the probe has answered.
                self._next_probe = now + self._retry_seconds()
                return True
            return False

    def failed(self, error: BaseException) -> None:
        with self._lock:
            first = not self._open
            self._open = True
            self._next_probe = self.clock() + self._retry_seconds()
        if first:
            log.warning(
                "%s unreachable (%s: %s); running degraded, trying again every %g s",
                self.name,
                type(error).__name__,
                error,
                self._retry_seconds(),
            )

    def succeeded(self) -> None:
        if not self._open:
            return
        with self._lock:
            was_open, self._open = self._open, False
        if was_open:
            log.warning("%s reachable again; degraded mode over", self.name)

    def reset(self) -> None:
        """Close without logging (tests, and a process that changed its configuration)."""
        with self._lock:
            self._open = False
            self._next_probe = 0.0
