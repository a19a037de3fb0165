"""The billing page through the store: the plans and the team's subscription, Stripe Checkout for an
upgrade and the Stripe billing portal (owners and admins), and the Stripe webhook's hand-off.

Checkout and the portal change nothing here: Stripe's events do, through receive_stripe_event.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

import stripe
from django.db import transaction
from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce

from accounts.errors import Forbidden, InvalidArgument, Unavailable
from accounts.models import ApiKey, Membership, Team
from accounts.principal import Principal
from billing import caps, standing, stripe_service, webhooks
from billing.models import PendingCheckout, Plan, Subscription
from billing.tasks import process_stripe_event
from memory import registry, usage, validation
from memory.models import Note, Project
from memory.shapes import results_accounts
from memory.store.accounts import account_user, team_of

log = logging.getLogger(__name__)

MANAGE_ONLY = "Only the team's owners and admins can change its plan."


class StripeUnavailable(Unavailable):
    """Stripe did not answer: nothing was charged or changed."""


def _plan_dict(plan: Plan) -> results_accounts.PlanOffer:
    return {
        "code": plan.code,
        "name": plan.name,
        "price_cents_monthly": plan.price_cents_monthly,
        "buyable": bool(plan.price_id),
        "caps": plan.caps(),
    }


@registry.read
def get_billing(principal: Principal) -> results_accounts.Billing:
    """What the billing page shows: the team, its usage against the plan in force (get_usage's
    answer), the plan it is subscribed to, every plan of the catalogue, and whether Stripe is set up
    and the caller may buy (`can_manage`) or open the portal."""
    team = team_of(principal)
    subscription = Subscription.objects.select_related("plan").filter(team=team).first()
    in_force = usage.usage(principal.team_id)
    current = Plan.objects.get(code=in_force["plan"]["code"])
    enabled = stripe_service.configured()
    return {
        "team": {"id": team.pk, "slug": team.slug, "name": team.name},
        "usage": in_force,
        "current_plan": _plan_dict(current),
        "subscribed_plan": _plan_dict(subscription.plan if subscription is not None else current),
        "live": subscription is not None and subscription.is_live,
        "plans": [_plan_dict(plan) for plan in Plan.objects.all()],
        "stripe_enabled": enabled,
        "way_out": caps.way_out(),
        "can_manage": principal.can_manage,
        "can_open_portal": enabled
        and principal.can_manage
        and bool(subscription and subscription.stripe_customer_id),
    }


def _counted(rows: Any) -> Coalesce:
    counted = rows.order_by().values("team_id").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


@registry.read
def get_cap_standing(principal: Principal) -> results_accounts.CapStanding:
    """The plan in force and each cap the team has used at least caps.WARN_AT_PERCENT of, for the
    banner of every signed-in page: two queries (the subscription with its plan, one row of counts)."""
    plan = Plan.of_team(principal.team_id)
    team = OuterRef("pk")
    row = (
        Team.objects.filter(pk=principal.team_id)
        .annotate(
            used_projects=_counted(Project.objects.filter(team_id=team)),
            used_notes=_counted(Note.objects.filter(team_id=team, deleted_at__isnull=True)),
            used_members=_counted(Membership.objects.filter(team_id=team)),
            used_api_keys=_counted(ApiKey.objects.usable().filter(team_id=team)),
        )
        .values("used_projects", "used_notes", "used_members", "used_api_keys")
        .first()
    )
    counts: dict[str, Any] = dict(row) if row else {}
    limits = plan.caps()
    warnings: list[results_accounts.CapWarning] = []
    for cap in caps.CAP_WORDS:
        used, limit = int(counts.get(f"used_{cap}", 0)), int(limits[cap])
        if used * 100 >= limit * caps.WARN_AT_PERCENT:
            warnings.append(
                {
                    "cap": cap,
                    "label": caps.CAP_WORDS[cap],
                    "used": used,
                    "limit": limit,
                    "full": used >= limit,
                }
            )
    warnings.sort(key=lambda w: (not w["full"], -(w["used"] / max(w["limit"], 1))))
    enabled = stripe_service.configured()
    return {
        "plan": plan.name,
        "warnings": warnings,
        "way_out": standing.way_out(can_manage=principal.can_manage, stripe_enabled=enabled),
        "billing_link": enabled and principal.can_manage,
    }


def _require_buyer(principal: Principal) -> None:
    if not principal.can_manage:
        raise Forbidden(MANAGE_ONLY)


@registry.write
def start_checkout(principal: Principal, plan: str) -> results_accounts.StripeRedirect:
    """A Stripe Checkout URL for `plan` (owners and admins). Refused when Stripe is not set up, the
    plan is not sold, or the team already pays through Stripe (it changes plan in the portal).

    At most one Checkout is open per team: while one is (until Stripe's event closes it or it
    expires), asking for the same plan hands out that session again and another plan is refused, so
    two sessions can never both be paid."""
    _require_buyer(principal)
    if not stripe_service.configured():
        raise InvalidArgument("Upgrades are off: this server has no Stripe keys.")
    code = validation.text(plan, "plan", limit=30)
    chosen = Plan.objects.filter(code=code).first()
    if chosen is None or not chosen.price_id:
        raise InvalidArgument("That plan cannot be bought here.")
    team = team_of(principal)
    # One checkout decision at a time per team: two owners clicking at once meet the same pending row.
    Team.objects.select_for_update().filter(pk=team.pk).first()
    subscription = Subscription.objects.filter(team=team).first()
    if subscription is not None and subscription.is_live:
        raise InvalidArgument("This team already pays through Stripe: change its plan in Manage billing.")
    pending = PendingCheckout.objects.open().filter(team=team).select_related("plan").first()
    if pending is not None:
        if pending.plan_id == chosen.pk:
            return {"url": pending.url}
        raise InvalidArgument(
            f"A checkout for the {pending.plan.name} plan is already open for this team (until "
            f"{pending.expires_at:%Y-%m-%d %H:%M} UTC): finish or cancel it there before choosing another plan."
        )
    try:
        session = stripe_service.open_checkout(
            team,
            chosen,
            customer_id=subscription.stripe_customer_id if subscription is not None else "",
            email=account_user(principal).email,
        )
    except stripe.StripeError:
        log.exception("Checkout session for team %s failed", team.pk)
        raise StripeUnavailable(
            "Stripe did not open a checkout; nothing was charged. Try again shortly."
        ) from None
    PendingCheckout.objects.create(
        team=team, plan=chosen, session_id=session.id, url=session.url, expires_at=session.expires_at
    )
    return {"url": session.url}


@registry.write
def open_billing_portal(principal: Principal) -> results_accounts.StripeRedirect:
    """A Stripe billing portal URL for the team's customer (owners and admins)."""
    _require_buyer(principal)
    team = team_of(principal)
    subscription = Subscription.objects.filter(team=team).first()
    if not stripe_service.configured() or subscription is None or not subscription.stripe_customer_id:
        raise InvalidArgument("This team has no Stripe billing to manage yet.")
    try:
        url = stripe_service.portal_url(subscription.stripe_customer_id)
    except stripe.StripeError:
        log.exception("Portal session for team %s failed", team.pk)
        raise StripeUnavailable("Stripe did not open the billing portal. Try again shortly.") from None
    return {"url": url}


def receive_stripe_event(payload: bytes, signature: str | None) -> results_accounts.StripeEventReceived:
    """A Stripe webhook delivery: verify its signature, store the event once, and schedule its
    handling (billing/webhooks.py) after the commit.

    It takes no Principal: Stripe is nobody's credential, the signature over the body is its proof,
    and the handling acts as the system (audit rows say so). Returns the `status` (received, or
    duplicate for an event already stored, which Stripe should stop retrying) and the `event` id;
    invalid_argument for a bad signature or body."""
    try:
        event, apply = webhooks.receive(payload, signature)
    except webhooks.BadEvent as exc:
        raise InvalidArgument(str(exc)) from None
    if not apply:
        return {"status": "duplicate", "event": event.event_id}
    transaction.on_commit(partial(process_stripe_event.delay, event.pk))
    return {"status": "received", "event": event.event_id}
