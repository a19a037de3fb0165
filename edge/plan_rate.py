"""The team plan's per-credential request rate, carried on the Principal for the limit every entry
point enforces with edge.rate."""

from __future__ import annotations

from dataclasses import replace

from django.db import models

from accounts.models import Team
from accounts.principal import Principal
from billing.models import Plan, Subscription

# What a credential's query loads alongside its team (select_related) for plan_rate to need no query.
TEAM_PLAN = "team__subscription__plan"


def default_plan_rate() -> models.Subquery:
    """The default plan's rate as an annotation (`default_plan_rate`), for teams on no paid plan."""
    return models.Subquery(Plan.objects.filter(is_default=True).values("requests_per_minute")[:1])


def with_plan_rate(principal: Principal) -> Principal:
    """The principal with its team plan's requests per minute (0: unlimited)."""
    return replace(principal, requests_per_minute=Plan.of_team(principal.team_id).requests_per_minute)


def plan_rate(team: Team, default_rate: int | None) -> int:
    """Plan.of_team's rate from a team loaded with TEAM_PLAN and the default plan's rate read in the
    same query (default_plan_rate); a query only when the catalogue has no default plan yet."""
    # A team without a subscription row: the reverse accessor raises an AttributeError subclass.
    subscription: Subscription | None = getattr(team, "subscription", None)
    if subscription is not None and subscription.grants_plan():
        return int(subscription.plan.requests_per_minute)
    if default_rate is not None:
        return int(default_rate)
    return int(Plan.default().requests_per_minute)
