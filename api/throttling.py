"""The team plan's per-credential request rate, counted in the same windows as the MCP gateway's, so
a credential's REST and MCP calls share one limit."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from accounts.principal import Principal
from billing import ratelimit


class PlanRateThrottle(BaseThrottle):
    def __init__(self) -> None:
        self.retry_after = 0

    def allow_request(self, request: Request, view: Any) -> bool:
        principal = request.auth
        if not isinstance(principal, Principal):
            return True
        decision = ratelimit.hit_sync(principal.rate_limit_key, principal.requests_per_minute)
        self.retry_after = decision.retry_after
        return decision.allowed

    def wait(self) -> float:
        return float(self.retry_after)
