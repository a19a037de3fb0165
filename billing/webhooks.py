"""Stripe webhooks: verify the signature, store each event once, then apply it under a wrapper that
records success or failure on the event's row.

Events are not applied from their own payload: each names a subscription, and the subscription is
read back from Stripe under a lock on the team. Deliveries in any order, late or repeated, therefore
end in Stripe's current state."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import stripe
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts import audit
from accounts.limits import AUDIT_OBJECT_ID
from accounts.models import Team
from billing import actions, clock, limits, stripe_service
from billing.models import (
    GRACE_STATUSES,
    PAID_STATUSES,
    KnownSubscription,
    PendingCheckout,
    StripeEvent,
    Subscription,
)

log = logging.getLogger(__name__)


class BadEvent(Exception):
    """The request is not a Stripe event signed with our secret (or its body is not an event)."""


def receive(payload: bytes, signature: str | None) -> tuple[StripeEvent, bool]:
    """Verify and store an event. Returns the row and whether it should be (re)applied: a new
    event, or a redelivery of one whose processing failed; a duplicate of a settled one is not."""
    secret = settings.STRIPE_WEBHOOK_SECRET
    if not secret:
        raise BadEvent("STRIPE_WEBHOOK_SECRET is not set: events cannot be verified.")
    try:
        stripe.Webhook.construct_event(payload, signature, secret)
        data = json.loads(payload)
    except stripe.SignatureVerificationError as exc:
        raise BadEvent(f"Signature check failed: {exc.user_message or exc}") from exc
    except ValueError as exc:
        raise BadEvent("The body is not JSON.") from exc
    if not (
        isinstance(data, dict)
        and isinstance(data.get("id"), str)
        and isinstance(data.get("type"), str)
        and isinstance(data.get("created"), int)
    ):
        raise BadEvent("The body is not a Stripe event.")
    with transaction.atomic():
        event, created = StripeEvent.objects.get_or_create(
            event_id=data["id"],
            defaults={
                "type": data["type"][: limits.STRIPE_EVENT_TYPE.max_length],
                "payload": data,
                "livemode": bool(data.get("livemode")),
                "created": datetime.fromtimestamp(data["created"], tz=UTC),
            },
        )
    return event, created or event.state == StripeEvent.State.FAILED


@dataclass(frozen=True)
class Outcome:
    state: str
    text: str
    team: Team | None = None


def ignored(text: str, team: Team | None = None) -> Outcome:
    return Outcome(StripeEvent.State.IGNORED, text, team)


def process(event_pk: int) -> str:
    """Apply a stored event once, recording on its row what happened: processed or ignored with
    the outcome, or failed with the error (then re-raised so the task can retry)."""
    failure: Exception | None = None
    with transaction.atomic():
        # The row lock makes a redelivery processed concurrently wait, then find the event settled.
        event = StripeEvent.objects.select_for_update().filter(pk=event_pk).first()
        if event is None or event.state in (StripeEvent.State.PROCESSED, StripeEvent.State.IGNORED):
            return "already settled"
        event.attempts += 1
        try:
            with transaction.atomic():
                outcome = apply(event)
        except Exception as exc:
            log.exception("Stripe event %s (%s) failed", event.event_id, event.type)
            event.state = StripeEvent.State.FAILED
            event.error = f"{type(exc).__name__}: {exc}"[: limits.STRIPE_EVENT_ERROR.max_length]
            failure = exc
        else:
            event.state = outcome.state
            event.outcome = outcome.text[: limits.STRIPE_EVENT_OUTCOME.max_length]
            event.team = outcome.team
            event.error = ""
            event.processed_at = timezone.now()
        event.save()
    if failure is not None:
        raise failure
    return event.outcome


def apply(event: StripeEvent) -> Outcome:
    handler = HANDLERS.get(event.type)
    if handler is None:
        return ignored(f"{event.type} is not handled")
    return handler(event, event.data_object)


def _sync(team: Team, subscription_id: str) -> Outcome:
    # Locked before Stripe is read, so two events of one team apply one after the other and the later
    # read (the newer state) is the one that stays.
    Team.objects.select_for_update().filter(pk=team.pk).first()
    current = stripe_service.retrieve_subscription(subscription_id)
    # The team's other subscriptions that were live when last seen are read again too, so the plan
    # follows whichever of them pays now (there should be one; billing.actions reports any more).
    others = [
        stripe_service.retrieve_subscription(other)
        for other in sorted(_live_subscription_ids(team) - {subscription_id})
    ]
    outcome = actions.sync_subscription(team, current, clock.now(), others)
    return Outcome(StripeEvent.State.PROCESSED, outcome, team)


def _live_subscription_ids(team: Team) -> set[str]:
    known = KnownSubscription.objects.filter(team=team, status__in=PAID_STATUSES | GRACE_STATUSES)
    ids = set(known.values_list("stripe_subscription_id", flat=True))
    attached = Subscription.objects.filter(team=team).first()
    if attached is not None and attached.is_live:
        ids.add(attached.stripe_subscription_id)
    return ids


def _team_for(subscription_id: str, customer_id: str, team_ref: str) -> Team | None:
    """The team an object is about: the one already tracking the subscription or customer, else the
    one Checkout named in the metadata (an event may arrive before checkout.session.completed)."""
    tracked = Subscription.objects.for_stripe(subscription_id, customer_id).select_related("team").first()
    if tracked is not None:
        return tracked.team
    known = KnownSubscription.objects.filter(stripe_subscription_id=subscription_id).select_related("team")
    if subscription_id and (seen := known.first()) is not None:
        return seen.team
    return Team.objects.filter(public_id=team_ref).first() if team_ref else None


def _close_checkout(session: Mapping[str, Any], outcome: str) -> None:
    session_id = str(session.get("id") or "")
    if session_id:
        PendingCheckout.objects.filter(session_id=session_id, closed_at__isnull=True).update(
            closed_at=clock.now(), outcome=outcome
        )


def on_checkout_expired(event: StripeEvent, session: Mapping[str, Any]) -> Outcome:
    _close_checkout(session, PendingCheckout.Outcome.EXPIRED)
    reference = str(session.get("client_reference_id") or "")
    team = Team.objects.filter(public_id=reference).first() if reference else None
    return Outcome(StripeEvent.State.PROCESSED, f"checkout {session.get('id')} expired", team)


def on_checkout_completed(event: StripeEvent, session: Mapping[str, Any]) -> Outcome:
    _close_checkout(session, PendingCheckout.Outcome.COMPLETED)
    if session.get("mode") != "subscription":
        return ignored(f"checkout in {session.get('mode')} mode")
    reference = str(session.get("client_reference_id") or "")
    team = Team.objects.filter(public_id=reference).first() if reference else None
    if team is None:
        return ignored(f"no team {reference!r}")
    subscription_id = stripe_service.object_id(session.get("subscription"))
    if not subscription_id:
        return ignored("checkout without a subscription", team)
    return _sync(team, subscription_id)


def on_subscription_event(event: StripeEvent, subscription: Mapping[str, Any]) -> Outcome:
    subscription_id = str(subscription.get("id") or "")
    metadata = subscription.get("metadata") or {}
    team = _team_for(
        subscription_id, stripe_service.object_id(subscription.get("customer")), str(metadata.get("team", ""))
    )
    if team is None:
        return ignored(f"{subscription_id} belongs to no team")
    return _sync(team, subscription_id)


def invoice_subscription(invoice: Mapping[str, Any]) -> tuple[str, str]:
    """The subscription id and team reference of an invoice. Since API version 2025-03-31 they sit
    under parent.subscription_details; before, the invoice held them itself."""
    details = (invoice.get("parent") or {}).get("subscription_details") or {}
    subscription_id = stripe_service.object_id(details.get("subscription") or invoice.get("subscription"))
    metadata = details.get("metadata") or (invoice.get("subscription_details") or {}).get("metadata") or {}
    return subscription_id, str(metadata.get("team", ""))


def on_invoice_event(event: StripeEvent, invoice: Mapping[str, Any]) -> Outcome:
    subscription_id, team_ref = invoice_subscription(invoice)
    if not subscription_id:
        return ignored("invoice of no subscription")
    team = _team_for(subscription_id, stripe_service.object_id(invoice.get("customer")), team_ref)
    if team is None:
        return ignored(f"{subscription_id} belongs to no team")
    outcome = _sync(team, subscription_id)
    audit.record(
        None,
        "billing.payment_failed" if event.type == "invoice.payment_failed" else "billing.invoice_paid",
        team_id=team.pk,
        object_id=str(invoice.get("id", ""))[: AUDIT_OBJECT_ID.max_length],
        subscription=subscription_id,
        amount=invoice.get("amount_due"),
        currency=invoice.get("currency"),
        attempt=invoice.get("attempt_count"),
    )
    return outcome


HANDLERS: dict[str, Callable[[StripeEvent, Mapping[str, Any]], Outcome]] = {
    "checkout.session.completed": on_checkout_completed,
    "checkout.session.expired": on_checkout_expired,
    "customer.subscription.created": on_subscription_event,
    "customer.subscription.updated": on_subscription_event,
    "customer.subscription.deleted": on_subscription_event,
    "invoice.paid": on_invoice_event,
    "invoice.payment_failed": on_invoice_event,
}
