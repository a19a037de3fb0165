"""The billing page of the signed-in person's team: plans and caps, usage against them, the
subscription; owners and admins upgrade through Stripe Checkout and manage billing in the portal.

It lives above memory (the page shows note and project usage) while billing itself stays below."""

from __future__ import annotations

import logging
from typing import Any

import stripe
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from accounts.models import Team, User
from billing import stripe_service
from billing.models import Plan, Subscription
from edge.principals import session_principal as edge_session_principal
from memory import store
from memory.store import Principal
from web.usage import CAP_LABELS, usage_rows

log = logging.getLogger(__name__)

MANAGE_ONLY = "Only the team's owners and admins can change its plan."


def session_principal(request: HttpRequest) -> tuple[Principal, Team]:
    """The signed-in person acting in the team the session chose, else in their first team."""
    if not isinstance(request.user, User):
        raise Http404("Not signed in.")
    principal = edge_session_principal(request)
    if principal is None:
        raise Http404("You are in no team.")
    team = Team.objects.filter(pk=principal.team_id, memberships__user_id=principal.user_id).first()
    if team is None:
        raise Http404("You are in no team.")
    return principal, team


def _plan_cards(current: Plan, subscription: Subscription | None, can_buy: bool) -> list[dict[str, Any]]:
    live = subscription is not None and subscription.is_live
    cards = []
    for plan in Plan.objects.all():
        caps = plan.caps()
        cards.append(
            {
                "plan": plan,
                "price": f"${plan.price_cents_monthly / 100:,.0f}" if plan.price_cents_monthly else "Free",
                "caps": [(CAP_LABELS[name], caps[name]) for name in CAP_LABELS],
                "current": plan.pk == current.pk,
                "verb": "Upgrade to"
                if plan.price_cents_monthly > current.price_cents_monthly
                else "Switch to",
                # A team already paying changes plan in the portal: a second Checkout would bill twice.
                "checkout": can_buy and not live and bool(plan.price_id) and plan.pk != current.pk,
                "portal": can_buy and live and plan.pk != current.pk,
            }
        )
    return cards


@require_GET
@login_required
def billing_page(request: HttpRequest) -> HttpResponse:
    principal, team = session_principal(request)
    usage = store.get_usage(principal)
    subscription = Subscription.objects.select_related("plan").filter(team=team).first()
    current = Plan.objects.get(code=usage["plan"]["code"])
    enabled = stripe_service.configured()
    can_manage = principal.can_manage
    context = {
        "team": team,
        "usage": usage,
        "usage_rows": usage_rows(usage),
        "subscription": usage["subscription"],
        "subscribed_plan": subscription.plan if subscription is not None else current,
        "plans": _plan_cards(current, subscription, enabled and can_manage),
        "stripe_enabled": enabled,
        "can_manage": can_manage,
        "can_open_portal": enabled and can_manage and bool(subscription and subscription.stripe_customer_id),
        "checkout": request.GET.get("checkout", ""),
        "manage_only": MANAGE_ONLY,
    }
    return render(request, "billing/billing.html", context)


def _refuse(request: HttpRequest, message: str) -> HttpResponse:
    messages.error(request, message)
    return redirect("billing:page")


@require_POST
@login_required
def start_checkout(request: HttpRequest) -> HttpResponse:
    principal, team = session_principal(request)
    if not principal.can_manage:
        return _refuse(request, MANAGE_ONLY)
    if not stripe_service.configured():
        return _refuse(request, "Upgrades are off: this server has no Stripe keys.")
    plan = Plan.objects.filter(code=request.POST.get("plan", "")).first()
    if plan is None or not plan.price_id:
        return _refuse(request, "That plan cannot be bought here.")
    subscription = Subscription.objects.filter(team=team).first()
    if subscription is not None and subscription.is_live:
        return _refuse(request, "This team already pays through Stripe: change its plan in Manage billing.")
    user = request.user
    try:
        url = stripe_service.checkout_url(
            team,
            plan,
            customer_id=subscription.stripe_customer_id if subscription is not None else "",
            email=user.email if isinstance(user, User) else "",
        )
    except stripe.StripeError:
        log.exception("Checkout session for team %s failed", team.pk)
        return _refuse(request, "Stripe did not open a checkout; nothing was charged. Try again shortly.")
    return HttpResponseRedirect(url, status=303)


@require_POST
@login_required
def open_portal(request: HttpRequest) -> HttpResponse:
    principal, team = session_principal(request)
    if not principal.can_manage:
        return _refuse(request, MANAGE_ONLY)
    subscription = Subscription.objects.filter(team=team).first()
    if not stripe_service.configured() or subscription is None or not subscription.stripe_customer_id:
        return _refuse(request, "This team has no Stripe billing to manage yet.")
    try:
        url = stripe_service.portal_url(subscription.stripe_customer_id)
    except stripe.StripeError:
        log.exception("Portal session for team %s failed", team.pk)
        return _refuse(request, "Stripe did not open the billing portal. Try again shortly.")
    return HttpResponseRedirect(url, status=303)
