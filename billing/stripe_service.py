"""Calls to Stripe through the official library: Checkout, the customer portal, subscriptions.

Every call builds a StripeClient from settings. Tests put a local fake in HTTP_CLIENT, so the real
library (its encoding, its errors, its objects) runs without a network."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import stripe
from django.conf import settings
from stripe.params.billing_portal import SessionCreateParams as PortalSessionParams
from stripe.params.checkout import SessionCreateParams as CheckoutSessionParams

from accounts.models import Team
from billing import caps
from billing.models import Plan

# Set by tests to a stripe.HTTPClient answering locally; None uses the library's default client.
HTTP_CLIENT: stripe.HTTPClient | None = None


class StripeNotConfigured(Exception):
    """STRIPE_SECRET_KEY is not set: nothing can be sold or looked up."""


def configured() -> bool:
    return caps.upgrades_on()  # one answer to "does this server sell plans?"


def client() -> stripe.StripeClient:
    if not configured():
        raise StripeNotConfigured("STRIPE_SECRET_KEY is not set, so Stripe cannot be called.")
    return stripe.StripeClient(
        settings.STRIPE_SECRET_KEY,
        base_addresses={"api": settings.STRIPE_API_BASE} if settings.STRIPE_API_BASE else None,
        http_client=HTTP_CLIENT or _bounded_http_client(),
        max_network_retries=int(settings.STRIPE_NETWORK_RETRIES),
    )


def _bounded_http_client() -> stripe.HTTPClient:
    """The library's requests-based client with a short timeout: its default waits 80 s a try, and a
    Stripe that accepts connections but never answers would hold the buyer's page for minutes."""
    seconds = float(settings.STRIPE_TIMEOUT_SECONDS)
    return stripe.RequestsClient(timeout=(seconds, seconds))


@dataclass(frozen=True)
class CheckoutSession:
    id: str
    url: str
    expires_at: datetime


def checkout_url(team: Team, plan: Plan, *, customer_id: str = "", email: str = "") -> str:
    """The page of a new Checkout Session selling `plan` to `team` (see open_checkout)."""
    return open_checkout(team, plan, customer_id=customer_id, email=email).url


def open_checkout(team: Team, plan: Plan, *, customer_id: str = "", email: str = "") -> CheckoutSession:
    """A Checkout Session selling `plan` to `team`: its id, the page to send the buyer to, and when
    Stripe expires it.

    The team is named by its opaque id in client_reference_id and in the subscription's metadata,
    so every later event (whatever order it arrives in) leads back to the team."""
    reference = {"team": team.public_id, "plan": plan.code}
    params: CheckoutSessionParams = {
        "mode": "subscription",
        "client_reference_id": team.public_id,
        "line_items": [{"price": plan.price_id, "quantity": 1}],
        "success_url": f"{caps.upgrade_url()}?checkout=success",
        "cancel_url": f"{caps.upgrade_url()}?checkout=canceled",
        "metadata": reference,
        "subscription_data": {"metadata": reference},
    }
    if customer_id:
        params["customer"] = customer_id
    elif email:
        params["customer_email"] = email
    session = client().v1.checkout.sessions.create(params=params)
    return CheckoutSession(
        id=str(session.id), url=str(session.url), expires_at=from_timestamp(session.expires_at)
    )


def portal_url(customer_id: str) -> str:
    """A customer-portal session where the team updates its card, changes plan or cancels."""
    params: PortalSessionParams = {"customer": customer_id, "return_url": caps.upgrade_url()}
    session = client().v1.billing_portal.sessions.create(params=params)
    return str(session.url)


@dataclass(frozen=True)
class StripeSubscription:
    """What billing needs of a Stripe subscription object."""

    id: str
    customer: str
    status: str
    price_id: str
    current_period_end: datetime | None
    cancel_at_period_end: bool
    team_ref: str  # the team's public id from the metadata Checkout set; "" when absent

    @classmethod
    def from_object(cls, obj: Mapping[str, Any]) -> StripeSubscription:
        items = (obj.get("items") or {}).get("data") or [{}]
        item = items[0]
        price = item.get("price") or {}
        # Since API version 2025-03-31 the period lives on each item; older versions keep it on the
        # subscription.
        period_end = item.get("current_period_end") or obj.get("current_period_end")
        metadata = obj.get("metadata") or {}
        return cls(
            id=str(obj["id"]),
            customer=object_id(obj.get("customer")),
            status=str(obj.get("status", "")),
            price_id=object_id(price),
            current_period_end=from_timestamp(period_end) if period_end else None,
            cancel_at_period_end=bool(obj.get("cancel_at_period_end") or obj.get("cancel_at")),
            team_ref=str(metadata.get("team", "")),
        )


def retrieve_subscription(subscription_id: str) -> StripeSubscription:
    """Stripe's current view of a subscription: the truth, whatever order events came in."""
    subscription = client().v1.subscriptions.retrieve(subscription_id)
    return StripeSubscription.from_object(subscription.to_dict())


def object_id(value: Any) -> str:
    """An id from a field Stripe sends either as the id or as the expanded object."""
    if isinstance(value, Mapping):
        return str(value.get("id") or "")
    return str(value or "")


def from_timestamp(value: Any) -> datetime:
    return datetime.fromtimestamp(int(value), tz=UTC)
