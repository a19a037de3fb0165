"""The team plan's per-credential request rate, carried on the Principal for the limit every entry
point enforces with edge.rate."""

from __future__ import annotations

from dataclasses import replace

from accounts.principal import Principal
from billing.models import Plan


def with_plan_rate(principal: Principal) -> Principal:
    """The principal with its team plan's requests per minute (0: unlimited)."""
    return replace(principal, requests_per_minute=Plan.of_team(principal.team_id).requests_per_minute)
