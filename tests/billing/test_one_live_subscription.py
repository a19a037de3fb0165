"""At most one live subscription per team: a second Checkout is not opened while one is pending, and
when Stripe holds two live subscriptions anyway the plan follows the paying one and the extra one is
reported. Driven with events signed by the stripe library's own signer, in the orders Stripe may
deliver them."""

from __future__ import annotations

import pytest

from accounts.errors import InvalidArgument
from accounts.models import AuditEvent
from billing import stripe_service
from billing.models import KnownSubscription, PendingCheckout, Plan, StripeEvent, Subscription
from memory import store


def test_a_second_checkout_reuses_the_open_one_or_is_refused(cast, fake_stripe, billing_clock, deliver):
    owner, admin_again = cast.principal(cast.owner), cast.principal(cast.owner)
    first = store.start_checkout(owner, "pro")["url"]
    assert store.start_checkout(admin_again, "pro")["url"] == first
    with pytest.raises(InvalidArgument, match="already open"):
        store.start_checkout(owner, "team")
    sessions = [call for call in fake_stripe.calls if call.path == "/v1/checkout/sessions"]
    assert len(sessions) == 1, "Stripe was asked for one session only"
    pending = PendingCheckout.objects.get(team=cast.acme)
    assert (pending.plan.code, pending.closed_at) == ("pro", None)

    # The buyer lets the session lapse: Stripe says so, and the team may open a new one.
    expired = fake_stripe.sessions[pending.session_id]
    assert (
        deliver(fake_stripe.event("checkout.session.expired", {**expired, "status": "expired"})).status_code
        == 200
    )
    pending.refresh_from_db()
    assert pending.outcome == PendingCheckout.Outcome.EXPIRED
    assert store.start_checkout(owner, "team")["url"] != first


def test_a_completed_checkout_closes_the_pending_one_and_the_team_then_pays(
    cast, fake_stripe, billing_clock, deliver
):
    store.start_checkout(cast.principal(cast.owner), "pro")
    pending = PendingCheckout.objects.get(team=cast.acme)
    session, _ = fake_stripe.complete_checkout(pending.session_id)
    deliver(fake_stripe.event("checkout.session.completed", session))
    pending.refresh_from_db()
    assert pending.outcome == PendingCheckout.Outcome.COMPLETED
    with pytest.raises(InvalidArgument, match="already pays"):
        store.start_checkout(cast.principal(cast.owner), "team")


def test_an_expired_session_no_longer_blocks_a_checkout(cast, fake_stripe, billing_clock):
    first = store.start_checkout(cast.principal(cast.owner), "pro")["url"]
    billing_clock.advance(hours=25)  # Stripe expires a session after 24 hours
    assert store.start_checkout(cast.principal(cast.owner), "team")["url"] != first


class Story:
    """Two Checkout sessions paid before the first webhook (opened around the store, as a second tab
    did before it kept one pending): Stripe holds a Pro and a Team subscription for one team."""

    def __init__(self, fake, team, send) -> None:
        self.fake, self.send = fake, send
        pro_url = stripe_service.checkout_url(team, Plan.objects.get(code="pro"))
        team_url = stripe_service.checkout_url(team, Plan.objects.get(code="team"))
        pro_session, team_session = (url.rsplit("/", 1)[1] for url in (pro_url, team_url))
        self.pro_session, self.pro = fake.complete_checkout(pro_session)
        self.team_session, self.team = fake.complete_checkout(team_session)

    def pro_completed(self) -> None:
        self.send(self.fake.event("checkout.session.completed", self.pro_session))

    def team_completed(self) -> None:
        self.send(self.fake.event("checkout.session.completed", self.team_session))

    def pro_renewal_fails(self) -> None:
        self.fake.set_subscription(self.pro["id"], status="past_due")
        self.send(self.fake.event("invoice.payment_failed", self.fake.invoice(self.pro["id"], paid=False)))

    def pro_updated_late(self) -> None:
        # A redelivered snapshot from before the failure: Stripe's current state is what counts.
        self.send(self.fake.event("customer.subscription.updated", {**self.pro, "status": "active"}))


ORDERS: dict[str, list[str]] = {
    "the issue's sequence": ["pro_completed", "team_completed", "pro_renewal_fails", "pro_updated_late"],
    "failure before the second checkout event": ["pro_completed", "pro_renewal_fails", "team_completed"],
    "second checkout event first": ["team_completed", "pro_completed", "pro_renewal_fails"],
}


@pytest.mark.parametrize("order", list(ORDERS))
def test_two_live_subscriptions_the_plan_follows_the_paying_one_and_the_extra_is_reported(
    cast,
    fake_stripe,
    billing_clock,
    deliver,
    order,
):
    story = Story(fake_stripe, cast.acme, deliver)
    for step in ORDERS[order]:
        getattr(story, step)()
        assert not StripeEvent.objects.filter(state=StripeEvent.State.FAILED).exists()

    row = Subscription.objects.get(team=cast.acme)
    assert (row.stripe_subscription_id, row.status, row.plan.code) == (story.team["id"], "active", "team")
    assert row.grace_period_end is None
    assert Plan.of_team(cast.acme.pk).code == "team"
    reported = AuditEvent.objects.filter(team=cast.acme, action="billing.duplicate_subscription")
    assert reported.count() == 1, "the second live subscription is reported once"
    assert set(reported.get().detail["subscriptions"]) == {story.pro["id"], story.team["id"]}
    assert reported.get().detail["kept"] in {story.pro["id"], story.team["id"]}
    known = {k.stripe_subscription_id: k for k in KnownSubscription.objects.filter(team=cast.acme)}
    assert set(known) == {story.pro["id"], story.team["id"]}
    assert known[story.pro["id"]].status == "past_due"
    assert all(k.duplicate_reported_at is not None for k in known.values())


def test_a_canceled_subscription_never_outranks_an_active_one(cast, fake_stripe, billing_clock, deliver):
    story = Story(fake_stripe, cast.acme, deliver)
    story.team_completed()
    story.pro_completed()
    fake_stripe.set_subscription(story.team["id"], status="canceled")
    deliver(fake_stripe.event("customer.subscription.deleted", fake_stripe.subscriptions[story.team["id"]]))
    row = Subscription.objects.get(team=cast.acme)
    assert (row.stripe_subscription_id, row.status, row.plan.code) == (story.pro["id"], "active", "pro")
