"""Liveness (/healthz: the process answers) and readiness (/readyz: its dependencies answer)."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse


def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


def _check_database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as exc:
        return f"error: {type(exc).__name__}"
    return "ok"


def _check_redis() -> str:
    import redis

    try:
        client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)
        client.ping()
    except Exception as exc:
        return f"error: {type(exc).__name__}"
    return "ok"


def readyz(request: HttpRequest) -> JsonResponse:
    checks = {"database": _check_database()}
    if settings.REDIS_URL:
        checks["redis"] = _check_redis()
    if checks["database"] != "ok":
        return JsonResponse({"status": "unavailable", "checks": checks}, status=503)
    # Without Redis the process still serves every request, degraded (docs/production.md): taking
    # it out of the balancer would turn a Redis outage, which every node sees, into a full one.
    degraded = any(value != "ok" for value in checks.values())
    return JsonResponse({"status": "degraded" if degraded else "ok", "checks": checks})
