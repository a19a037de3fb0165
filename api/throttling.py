"""Request rates of the REST API.

- The team plan's per-credential rate, counted in the same windows as the MCP gateway's, so a
  credential's REST and MCP calls share one limit.
- Requests without a valid credential, per client address (the anonymous-rest door of edge.doors):
  an address past it is refused before any credential is looked up, so API keys and tokens cannot
  be guessed at speed. Its valid credentials wait out the minute too: telling them apart would take
  the look-up the limit exists to spare.
"""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from edge import doors, rate
from edge.client_address import client_address
from memory.store import Principal, RateLimited


def _refuse(decision: rate.Decision) -> None:
    if not decision.allowed:
        raise RateLimited(
            f"More than {decision.limit} requests a minute without a valid credential came from this "
            f"address. Retry in {decision.retry_after} s, with `Authorization: Bearer <API key>`.",
            retry_after=decision.retry_after,
        )


def refuse_flooding_address(request: Request) -> str:
    """Refuse (rate_limited) an address already past its anonymous limit; return the address."""
    address = client_address(request._request)
    _refuse(doors.ANONYMOUS_REST.attempt(address=address).peek())
    return address


def count_anonymous(address: str) -> None:
    """Count a request that brought no valid credential; refuse it if it is one too many."""
    _refuse(doors.ANONYMOUS_REST.attempt(address=address).hit())


class PlanRateThrottle(BaseThrottle):
    def __init__(self) -> None:
        self.retry_after = 0

    def allow_request(self, request: Request, view: Any) -> bool:
        principal = request.auth
        if not isinstance(principal, Principal):
            return True
        decision = rate.hit(principal.rate_limit_key, principal.requests_per_minute)
        self.retry_after = decision.retry_after
        return decision.allowed

    def wait(self) -> float:
        return float(self.retry_after)
