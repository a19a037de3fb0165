"""The billing page of the signed-in person's team: plans and caps, usage against them, the
subscription; owners and admins upgrade through Stripe Checkout and manage billing in the portal.
And Stripe's webhook, which the store verifies, stores and hands to a task."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from memory import store
from memory.store import Principal, StoreError
from web.pages import page
from web.session import team_page
from web.usage import CAP_LABELS, usage_rows

MANAGE_ONLY = "Only the team's owners and admins can change its plan."


def _plan_cards(billing: store.results_accounts.Billing) -> list[dict[str, Any]]:
    current = billing["current_plan"]
    can_buy = billing["stripe_enabled"] and billing["can_manage"]
    cards = []
    for plan in billing["plans"]:
        caps = plan["caps"]
        other = plan["code"] != current["code"]
        cards.append(
            {
                "plan": plan,
                "price": f"${plan['price_cents_monthly'] / 100:,.0f}"
                if plan["price_cents_monthly"]
                else "Free",
                "caps": [(CAP_LABELS[name], caps[name]) for name in CAP_LABELS],
                "current": not other,
                "verb": "Upgrade to"
                if plan["price_cents_monthly"] > current["price_cents_monthly"]
                else "Switch to",
                # A team already paying changes plan in the portal: a second Checkout would bill twice.
                "checkout": can_buy and not billing["live"] and plan["buyable"] and other,
                "portal": can_buy and billing["live"] and other,
            }
        )
    return cards


@require_GET
@team_page
def billing_page(request: HttpRequest, principal: Principal) -> HttpResponse:
    billing = store.get_billing(principal)
    usage = billing["usage"]
    context = {
        "team": billing["team"],
        "usage": usage,
        "usage_rows": usage_rows(usage),
        "subscription": usage["subscription"],
        "subscribed_plan": billing["subscribed_plan"],
        "plans": _plan_cards(billing),
        "stripe_enabled": billing["stripe_enabled"],
        "way_out": billing["way_out"],
        "can_manage": billing["can_manage"],
        "can_open_portal": billing["can_open_portal"],
        "checkout": request.GET.get("checkout", ""),
        "manage_only": MANAGE_ONLY,
    }
    return page(request, "billing/billing.html", context, principal=principal)


def _refuse(request: HttpRequest, message: str) -> HttpResponse:
    messages.error(request, message)
    return redirect("billing:page")


@require_POST
@team_page
def start_checkout(request: HttpRequest, principal: Principal) -> HttpResponse:
    try:
        url = store.start_checkout(principal, str(request.POST.get("plan", "")))["url"]
    except StoreError as error:
        return _refuse(request, error.message)
    return HttpResponseRedirect(url, status=303)


@require_POST
@team_page
def open_portal(request: HttpRequest, principal: Principal) -> HttpResponse:
    try:
        url = store.open_billing_portal(principal)["url"]
    except StoreError as error:
        return _refuse(request, error.message)
    return HttpResponseRedirect(url, status=303)


@csrf_exempt  # Stripe signs the body instead; it has no session or CSRF token.
@require_POST
def stripe_webhook(request: HttpRequest) -> JsonResponse:
    """Verify, store once, acknowledge; a task does the work."""
    try:
        received = store.receive_stripe_event(request.body, request.headers.get("Stripe-Signature"))
    except StoreError as error:
        return JsonResponse({"error": error.message}, status=400)
    return JsonResponse(received)
