"""The Redis circuit breaker (accounts.breaker.CircuitBreaker), shared by everything that talks to
REDIS_URL: the cache, the broker and the reinforcement buffer are one server, so a failure seen by
one spares the others their own wait. Retry period: settings.REDIS_RETRY_SECONDS."""

from __future__ import annotations

from django.conf import settings

from accounts.breaker import CircuitBreaker


def _retry_seconds() -> float:
    return float(settings.REDIS_RETRY_SECONDS)


redis = CircuitBreaker("Redis", _retry_seconds)
