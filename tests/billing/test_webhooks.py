"""The Stripe webhook endpoint, driven with events signed by the stripe library's own signer."""

from __future__ import annotations

import json
import time
from datetime import timedelta

import pytest

from accounts.models import AuditEvent
from billing import stripe_service, webhooks
from billing.models import Plan, StripeEvent, Subscription
from billing.standing import subscription_state
from tests.billing.fake_stripe import PRICES, signed


def checkout(fake, team, plan="pro", status="active"):
    """The team opens Checkout and pays: returns Stripe's session and subscription."""
    stripe_service.checkout_url(team, Plan.objects.get(code=plan))
    return fake.complete_checkout(list(fake.sessions)[-1], status=status)


def subscribe(fake, deliver, team, plan="pro"):
    session, subscription = checkout(fake, team, plan)
    assert deliver(fake.event("checkout.session.completed", session)).status_code == 200
    return subscription


def retrievals(fake, subscription_id):
    return sum(1 for call in fake.calls if call.path == f"/v1/subscriptions/{subscription_id}")


def test_a_signed_event_is_stored_and_moves_the_team_to_its_plan(cast, fake_stripe, deliver):
    session, subscription = checkout(fake_stripe, cast.acme)
    event = fake_stripe.event("checkout.session.completed", session)
    response = deliver(event)
    assert response.status_code == 200 and response.json() == {"status": "received", "event": event["id"]}
    stored = StripeEvent.objects.get(event_id=event["id"])
    assert (stored.type, stored.state, stored.team, stored.attempts) == (
        "checkout.session.completed",
        StripeEvent.State.PROCESSED,
        cast.acme,
        1,
    )
    assert stored.payload == event and stored.error == ""
    row = Subscription.objects.get(team=cast.acme)
    assert (row.plan.code, row.status, row.stripe_customer_id, row.stripe_subscription_id) == (
        "pro",
        "active",
        subscription["customer"],
        subscription["id"],
    )
    assert row.current_period_end is not None and not row.cancel_at_period_end
    assert Plan.of_team(cast.acme.pk).code == "pro"
    changed = AuditEvent.objects.filter(team=cast.acme, action="team.plan_changed").latest("pk")
    assert changed.detail["old"] == "developer" and changed.detail["new"] == "pro"
    assert changed.detail["source"] == "stripe" and changed.detail["subscription"] == subscription["id"]


def test_a_tampered_body_is_refused_and_nothing_is_stored(cast, fake_stripe, client):
    session, _ = checkout(fake_stripe, cast.acme)
    payload = json.dumps(fake_stripe.event("checkout.session.completed", session))
    forged = payload.replace(cast.acme.public_id, cast.globex.public_id)
    response = client.post(
        "/billing/webhook/",
        data=forged,
        content_type="application/json",
        HTTP_STRIPE_SIGNATURE=signed(payload),
    )
    assert response.status_code == 400 and "Signature" in response.json()["error"]
    assert not StripeEvent.objects.exists()
    assert Plan.of_team(cast.globex.pk).code == "developer"


@pytest.mark.parametrize(
    "signature",
    [
        {"timestamp": int(time.time()) - 3600},  # replayed an hour later: outside the 5-minute tolerance
        {"secret": "whsec_someone_else"},
    ],
    ids=["expired-timestamp", "wrong-secret"],
)
def test_an_expired_or_foreign_signature_is_refused(cast, fake_stripe, deliver, signature):
    session, _ = checkout(fake_stripe, cast.acme)
    response = deliver(fake_stripe.event("checkout.session.completed", session), **signature)
    assert response.status_code == 400
    assert not StripeEvent.objects.exists() and Plan.of_team(cast.acme.pk).code == "developer"


def test_a_missing_signature_or_secret_or_event_is_refused(cast, fake_stripe, client, settings):
    event = json.dumps(fake_stripe.event("customer.created", {"id": "cus_1", "object": "customer"}))
    assert client.post("/billing/webhook/", data=event, content_type="application/json").status_code == 400
    not_an_event = json.dumps({"hello": "world"})
    response = client.post(
        "/billing/webhook/",
        data=not_an_event,
        content_type="application/json",
        HTTP_STRIPE_SIGNATURE=signed(not_an_event),
    )
    assert response.status_code == 400 and "not a Stripe event" in response.json()["error"]
    settings.STRIPE_WEBHOOK_SECRET = ""
    response = client.post(
        "/billing/webhook/", data=event, content_type="application/json", HTTP_STRIPE_SIGNATURE=signed(event)
    )
    assert response.status_code == 400 and "STRIPE_WEBHOOK_SECRET" in response.json()["error"]
    assert client.get("/billing/webhook/").status_code == 405
    assert not StripeEvent.objects.exists()


def test_a_duplicate_is_acknowledged_and_applied_once(cast, fake_stripe, deliver):
    session, subscription = checkout(fake_stripe, cast.acme)
    event = fake_stripe.event("checkout.session.completed", session)
    assert deliver(event).json()["status"] == "received"
    again = deliver(event)
    assert again.status_code == 200 and again.json() == {"status": "duplicate", "event": event["id"]}
    assert StripeEvent.objects.get().attempts == 1
    assert retrievals(fake_stripe, subscription["id"]) == 1
    assert AuditEvent.objects.filter(team=cast.acme, action="team.plan_changed").count() == 2  # cast + once


def test_events_out_of_order_end_in_stripes_current_state(cast, fake_stripe, deliver):
    session, subscription = checkout(fake_stripe, cast.acme, status="incomplete")
    created = fake_stripe.event("customer.subscription.created", subscription)
    fake_stripe.now += 5
    updated = fake_stripe.event(
        "customer.subscription.updated", fake_stripe.set_subscription(subscription["id"], status="active")
    )
    completed = fake_stripe.event("checkout.session.completed", session)
    # Newest first, the checkout last: each event is about the subscription, read back from Stripe.
    for event in (updated, created, completed):
        assert deliver(event).status_code == 200
        row = Subscription.objects.get(team=cast.acme)
        assert (row.plan.code, row.status) == ("pro", "active")
    assert set(StripeEvent.objects.values_list("state", flat=True)) == {StripeEvent.State.PROCESSED}


def test_a_late_update_does_not_revive_a_canceled_subscription(cast, fake_stripe, deliver):
    subscription = subscribe(fake_stripe, deliver, cast.acme)
    older = fake_stripe.event("customer.subscription.updated", subscription)
    fake_stripe.now += 60
    canceled = fake_stripe.set_subscription(
        subscription["id"], status="canceled", canceled_at=fake_stripe.now
    )
    deliver(fake_stripe.event("customer.subscription.deleted", canceled))
    deliver(older)
    row = Subscription.objects.get(team=cast.acme)
    assert row.status == "canceled" and Plan.of_team(cast.acme.pk).code == "free"
    assert "canceled" in subscription_state(cast.acme.pk)["message"]


def test_an_unknown_type_is_acknowledged_and_ignored(cast, fake_stripe, deliver):
    event = fake_stripe.event("customer.created", {"id": "cus_9", "object": "customer"})
    assert deliver(event).status_code == 200
    stored = StripeEvent.objects.get(event_id=event["id"])
    assert stored.state == StripeEvent.State.IGNORED and "not handled" in stored.outcome
    assert fake_stripe.calls == []


def test_an_event_about_no_team_of_ours_is_ignored(cast, fake_stripe, deliver):
    stranger = fake_stripe.new_subscription("cus_stranger", PRICES["pro"], {})
    deliver(fake_stripe.event("customer.subscription.created", stranger))
    stored = StripeEvent.objects.get()
    assert stored.state == StripeEvent.State.IGNORED and stored.team is None
    assert Subscription.objects.filter(stripe_subscription_id=stranger["id"]).count() == 0


def test_a_failure_is_recorded_and_a_redelivery_applies_it(cast, fake_stripe, deliver, settings):
    session, _ = checkout(fake_stripe, cast.acme)
    settings.STRIPE_PRICE_IDS = {}  # the Pro price is not set up on this server (yet)
    event = fake_stripe.event("checkout.session.completed", session)
    assert deliver(event).status_code == 200  # stored: Stripe must not keep resending it
    stored = StripeEvent.objects.get()
    assert stored.state == StripeEvent.State.FAILED and PRICES["pro"] in stored.error
    assert Plan.of_team(cast.acme.pk).code == "developer"
    settings.STRIPE_PRICE_IDS = dict(PRICES)
    assert deliver(event).json()["status"] == "received"  # a redelivery of a failed event is applied
    stored.refresh_from_db()
    assert (stored.state, stored.attempts, stored.error) == (StripeEvent.State.PROCESSED, 2, "")
    assert Plan.of_team(cast.acme.pk).code == "pro"
    assert webhooks.process(stored.pk) == "already settled"


def test_a_failed_payment_starts_one_grace_period_then_free_caps_until_paid(
    cast, fake_stripe, deliver, billing_clock, settings
):
    subscription = subscribe(fake_stripe, deliver, cast.acme)
    failed_at = billing_clock.current
    fake_stripe.set_subscription(subscription["id"], status="past_due")
    deliver(fake_stripe.event("invoice.payment_failed", fake_stripe.invoice(subscription["id"], paid=False)))
    row = Subscription.objects.get(team=cast.acme)
    grace_end = failed_at + timedelta(days=settings.BILLING_GRACE_PERIOD_DAYS)
    assert (row.status, row.grace_period_end) == ("past_due", grace_end)
    assert Plan.of_team(cast.acme.pk).code == "pro"
    state = subscription_state(cast.acme.pk)
    assert state["in_grace_period"] is True and "failed" in state["message"]
    assert AuditEvent.objects.filter(team=cast.acme, action="billing.payment_failed").count() == 1

    # Stripe retries and fails again: the grace period is not extended.
    billing_clock.advance(days=3)
    deliver(fake_stripe.event("customer.subscription.updated", fake_stripe.subscriptions[subscription["id"]]))
    assert Subscription.objects.get(team=cast.acme).grace_period_end == grace_end

    billing_clock.advance(days=4, seconds=1)
    assert Plan.of_team(cast.acme.pk).code == "free"
    state = subscription_state(cast.acme.pk)
    assert state["in_grace_period"] is False and "grace period ended" in state["message"]

    fake_stripe.set_subscription(subscription["id"], status="active")
    deliver(fake_stripe.event("invoice.paid", fake_stripe.invoice(subscription["id"], paid=True)))
    row = Subscription.objects.get(team=cast.acme)
    assert (row.status, row.grace_period_end, Plan.of_team(cast.acme.pk).code) == ("active", None, "pro")
    assert "message" not in subscription_state(cast.acme.pk)


def test_the_end_of_a_replaced_subscription_does_not_undo_the_new_one(cast, fake_stripe, deliver):
    old = subscribe(fake_stripe, deliver, cast.acme)
    fake_stripe.set_subscription(old["id"], status="canceled")
    deliver(fake_stripe.event("customer.subscription.deleted", fake_stripe.subscriptions[old["id"]]))
    new = subscribe(fake_stripe, deliver, cast.acme, plan="team")
    # Stripe resends the old subscription's end after the team bought anew.
    deliver(fake_stripe.event("customer.subscription.deleted", fake_stripe.subscriptions[old["id"]]))
    row = Subscription.objects.get(team=cast.acme)
    assert (row.stripe_subscription_id, row.status, row.plan.code) == (new["id"], "active", "team")
    assert "ignored" in StripeEvent.objects.latest("pk").outcome


def test_staff_apply_failed_events_again_from_the_admin(cast, fake_stripe, deliver, settings, client):
    session, _ = checkout(fake_stripe, cast.acme)
    settings.STRIPE_PRICE_IDS = {}
    deliver(fake_stripe.event("checkout.session.completed", session))
    failed = StripeEvent.objects.get(state=StripeEvent.State.FAILED)
    settings.STRIPE_PRICE_IDS = dict(PRICES)
    staff = type(cast.owner).objects.create_superuser("staff@knownbase.test", "correct horse battery")
    client.force_login(staff)
    assert client.get(f"/admin/billing/stripeevent/{failed.pk}/change/").status_code == 200  # read-only view
    response = client.post(
        "/admin/billing/stripeevent/", {"action": "reprocess", "_selected_action": [failed.pk]}
    )
    assert response.status_code == 302
    failed.refresh_from_db()
    assert (failed.state, failed.attempts) == (StripeEvent.State.PROCESSED, 2)
    assert Plan.of_team(cast.acme.pk).code == "pro"
