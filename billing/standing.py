"""A team's subscription as people and agents read it: get_usage, the billing page, plan_limit."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from billing import caps, clock
from billing.models import GRACE_STATUSES, Plan, Status, Subscription


def _time(value: datetime | None) -> str | None:
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z") if value else None


def _day(value: datetime | None) -> str:
    return value.astimezone(UTC).date().isoformat() if value else "an unknown date"


def subscription_state(team_id: int, now: datetime | None = None) -> dict[str, Any]:
    """The subscription behind the team's caps. `message` is there only when someone should act:
    it says what happened, which caps apply and where to fix it."""
    moment = now or clock.now()
    subscription = Subscription.objects.select_related("plan").filter(team_id=team_id).first()
    if subscription is None:
        return {"plan": Plan.default().code, "status": Status.ACTIVE.value, "source": "default"}
    state: dict[str, Any] = {
        "plan": subscription.plan.code,
        "status": subscription.status,
        "source": "stripe" if subscription.stripe_subscription_id else "staff",
        "current_period_end": _time(subscription.current_period_end),
        "cancel_at_period_end": subscription.cancel_at_period_end,
        "grace_period_end": _time(subscription.grace_period_end),
        "in_grace_period": subscription.status in GRACE_STATUSES and subscription.grants_plan(moment),
    }
    message = attention(subscription, moment)
    if message:
        state["message"] = message
    return state


def attention(subscription: Subscription, now: datetime) -> str:
    """What the team should know and do about its subscription, or "" when all is well."""
    plan = subscription.plan.name
    fallback = Plan.default().name
    where = caps.upgrade_url()
    if subscription.status in GRACE_STATUSES:
        end = _day(subscription.grace_period_end)
        if subscription.grants_plan(now):
            return (
                f"A payment for {plan} failed. {plan} caps hold until {end} (grace period), then "
                f"{fallback} caps apply. Update the payment method at {where}"
            )
        return (
            f"A payment for {plan} failed and the grace period ended on {end}: {fallback} caps apply. "
            f"No data was removed; writes past a {fallback} cap are refused. Update the payment "
            f"method at {where}"
        )
    if subscription.status == Status.INCOMPLETE:
        return (
            f"Checkout for {plan} is waiting for payment; {fallback} caps apply until it completes ({where})."
        )
    if not subscription.grants_plan(now):
        return (
            f"The {plan} subscription is {subscription.status.replace('_', ' ')}: {fallback} caps "
            f"apply. No data was removed. Upgrade again at {where}"
        )
    if subscription.cancel_at_period_end:
        return (
            f"{plan} is canceled and ends on {_day(subscription.current_period_end)}; then {fallback} "
            f"caps apply. Resume it at {where}"
        )
    return ""


def way_out(*, can_manage: bool, stripe_enabled: bool) -> str:
    """Who can lift a cap on this server, for the person reading: one sentence, shared by every
    place that warns about a cap."""
    if stripe_enabled and can_manage:
        return "Upgrade the plan on the billing page, or delete what the team no longer needs."
    if stripe_enabled:
        return (
            "Ask an owner or admin of the team to upgrade the plan, or delete what the team no longer needs."
        )
    if can_manage:
        return "Upgrades are off on this server: ask its staff to change the team's plan (they set it in the admin)."
    return "Ask an owner of the team to have this server's staff change the plan (staff set it in the admin)."
