"""Which plan a subscription grants and when, staff plan changes, and what the team is told."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accounts import actions as accounts_actions
from accounts.errors import PlanLimit
from accounts.models import AuditEvent, Membership, Role
from billing import actions, caps
from billing.models import Plan, Status, Subscription
from billing.standing import subscription_state


def set_state(team, **fields):
    Subscription.objects.filter(team=team).update(**fields)


@pytest.mark.parametrize(
    ("status", "grace_days", "granted"),
    [
        (Status.ACTIVE, None, True),
        (Status.TRIALING, None, True),
        (Status.PAST_DUE, 1, True),
        (Status.PAST_DUE, -1, False),
        (Status.UNPAID, -1, False),
        (Status.INCOMPLETE, None, False),
        (Status.INCOMPLETE_EXPIRED, None, False),
        (Status.CANCELED, None, False),
        (Status.PAUSED, None, False),
    ],
)
def test_the_plan_holds_while_paid_or_in_grace(cast, billing_clock, status, grace_days, granted):
    grace_end = billing_clock.current + timedelta(days=grace_days) if grace_days is not None else None
    set_state(cast.acme, status=status, grace_period_end=grace_end)
    assert Plan.of_team(cast.acme.pk).code == ("developer" if granted else "free")
    # Another team's subscription is untouched.
    assert Plan.of_team(cast.globex.pk).code == "developer"


def test_a_team_without_a_subscription_is_on_the_default_plan(cast):
    Subscription.objects.filter(team=cast.acme).delete()
    assert Plan.of_team(cast.acme.pk).is_default
    assert subscription_state(cast.acme.pk) == {"plan": "free", "status": "active", "source": "default"}


def test_a_staff_change_applies_at_once_and_lets_an_ended_stripe_subscription_go(cast):
    set_state(cast.acme, status=Status.CANCELED, stripe_customer_id="cus_1", stripe_subscription_id="sub_1")
    actions.change_plan(cast.acme, Plan.objects.get(code="team"), actor=cast.principal(cast.owner))
    row = Subscription.objects.get(team=cast.acme)
    assert (row.status, row.stripe_subscription_id, row.stripe_customer_id) == ("active", "", "cus_1")
    assert Plan.of_team(cast.acme.pk).code == "team"
    event = AuditEvent.objects.filter(action="team.plan_changed").latest("pk")
    # The cancelled subscription had left the team on Free: that is the plan it came from.
    assert event.detail == {"old": "free", "new": "team"} and event.actor_id == cast.owner.pk


def test_a_staff_change_keeps_a_live_stripe_subscription_attached(cast):
    set_state(cast.acme, status=Status.PAST_DUE, stripe_customer_id="cus_1", stripe_subscription_id="sub_1")
    actions.change_plan(cast.acme, Plan.objects.get(code="pro"))
    row = Subscription.objects.get(team=cast.acme)
    assert (row.status, row.stripe_subscription_id, row.grace_period_end) == ("active", "sub_1", None)


def test_after_the_grace_period_free_caps_refuse_and_say_why(cast, billing_clock):
    set_state(
        cast.acme, status=Status.PAST_DUE, grace_period_end=billing_clock.current - timedelta(seconds=1)
    )
    # Acme has three members; Free allows two. Nobody is removed, nobody new gets in.
    assert caps.members_used(cast.acme.pk) == 3
    with pytest.raises(PlanLimit) as refused:
        actions.add_member(cast.acme, accounts_actions.create_user("nina@acme.test"), Role.MEMBER)
    assert refused.value.details == {
        "cap": "members",
        "limit": 2,
        "usage": 3,
        "upgrade_url": caps.upgrade_url(),
    }
    assert "Developer subscription is past due, so Free caps apply" in refused.value.message
    assert Membership.objects.filter(team=cast.acme).count() == 3


def test_what_the_team_is_told(cast, billing_clock):
    period_end = billing_clock.current + timedelta(days=12)
    set_state(cast.acme, cancel_at_period_end=True, current_period_end=period_end)
    state = subscription_state(cast.acme.pk)
    assert state["cancel_at_period_end"] is True
    assert f"ends on {period_end.date().isoformat()}" in state["message"]
    set_state(cast.acme, status=Status.INCOMPLETE, cancel_at_period_end=False)
    assert "waiting for payment" in subscription_state(cast.acme.pk)["message"]
    set_state(cast.acme, status=Status.ACTIVE)
    assert "message" not in subscription_state(cast.acme.pk)
