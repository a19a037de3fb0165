"""Named state changes of billing: each runs in one transaction and writes its audit row."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction

from accounts import actions as accounts_actions
from accounts import audit
from accounts.models import ApiKey, Invitation, Membership, Team, User
from accounts.principal import Principal
from billing import caps, clock
from billing.models import (
    GRACE_STATUSES,
    PAID_STATUSES,
    KnownSubscription,
    Plan,
    Status,
    Subscription,
    status_rank,
)
from billing.stripe_service import StripeSubscription

log = logging.getLogger(__name__)


def _staff_state(before: Subscription | None) -> dict[str, Any]:
    """A staff change takes effect at once. A Stripe subscription that still bills stays attached
    (its next event speaks for Stripe again); an ended one is let go so the team can buy anew."""
    state: dict[str, Any] = {"status": Status.ACTIVE, "grace_period_end": None}
    if before is not None and not before.is_live:
        state |= {"stripe_subscription_id": "", "current_period_end": None, "cancel_at_period_end": False}
    return state


@transaction.atomic
def change_plan(
    team: Team,
    plan: Plan,
    actor: Principal | None = None,
    actor_id: int | None = None,
    *,
    stripe_state: dict[str, Any] | None = None,
) -> Plan:
    """Put a team on a plan: every plan change goes through here and is audited.

    Staff (the admin, commands) pass only the plan, which applies at once. A Stripe sync passes the
    subscription's state too; the audit row then says so. A downgrade keeps every row: only new
    writes meet the new caps."""
    Team.objects.select_for_update().filter(pk=team.pk).first()
    before = Subscription.objects.select_related("plan").filter(team=team).first()
    old = before.effective_plan() if before else Plan.default()
    fields: dict[str, Any] = {"plan": plan, **(stripe_state or _staff_state(before))}
    if before is None or before.plan_id != plan.pk or stripe_state is None:
        fields["changed_at"] = clock.now()
    subscription, _ = Subscription.objects.update_or_create(team=team, defaults=fields)
    new = subscription.effective_plan()
    if stripe_state is None:
        audit.record(
            actor,
            "team.plan_changed",
            team_id=team.pk,
            object_id=team.slug,
            actor_id=actor_id,
            old=old.code,
            new=plan.code,
        )
    else:
        _audit_stripe_change(team, before, subscription, old, new)
    return plan


def _audit_stripe_change(
    team: Team, before: Subscription | None, after: Subscription, old: Plan, new: Plan
) -> None:
    detail: dict[str, Any] = {"source": "stripe", "subscription": after.stripe_subscription_id}
    if old.pk != new.pk or (before is not None and before.plan_id != after.plan_id):
        audit.record(
            None,
            "team.plan_changed",
            team_id=team.pk,
            object_id=team.slug,
            old=old.code,
            new=new.code,
            subscribed=after.plan.code,
            **detail,
        )
    old_status = before.status if before else None
    if old_status != after.status:
        audit.record(
            None,
            "billing.subscription_status",
            team_id=team.pk,
            object_id=team.slug,
            old=old_status,
            new=after.status,
            **detail,
        )


@transaction.atomic
def sync_subscription(
    team: Team,
    stripe_subscription: StripeSubscription,
    now: datetime,
    others: Sequence[StripeSubscription] = (),
) -> str:
    """Make the team's subscription say what Stripe says, and say what changed.

    `others` are Stripe's current views of the team's other subscriptions that were live when last
    seen. A team should have at most one live subscription; when it has more (two Checkouts paid
    before the first webhook), the plan follows the best of them, paying over payment-failed over
    ended, the one already in force on a tie, and each extra live one is reported once (audit row,
    log, admin). A failed payment (past_due, unpaid) starts the grace period once; paying again ends
    it."""
    current = Subscription.objects.filter(team=team).first()
    attached = current.stripe_subscription_id if current is not None else ""
    candidates = [stripe_subscription, *[o for o in others if o.id != stripe_subscription.id]]
    for candidate in candidates:
        _remember(team, candidate, now)
    chosen = max(candidates, key=lambda sub: (status_rank(sub.status), sub.id == attached))
    if (
        chosen is stripe_subscription
        and current is not None
        and current.is_live
        and attached != chosen.id
        and chosen.status not in PAID_STATUSES | GRACE_STATUSES
    ):
        # An ended subscription the team has already replaced (and that Stripe was not asked about).
        return f"ignored {chosen.status} {chosen.id}: the team pays through {attached}"
    _report_duplicates(team, chosen, [c for c in candidates if status_rank(c.status) > 0], now)
    plan = Plan.for_price(chosen.price_id)
    if plan is None:
        raise UnknownPrice(
            f"Stripe price {chosen.price_id!r} of {chosen.id} is no plan's: "
            "set it as a plan's Stripe price id (admin) or STRIPE_PRICE_<CODE>, then reprocess the event."
        )
    grace_end = None
    if chosen.status in GRACE_STATUSES:
        started = current.grace_period_end if current is not None and attached == chosen.id else None
        grace_end = started or now + timedelta(days=settings.BILLING_GRACE_PERIOD_DAYS)
    change_plan(
        team,
        plan,
        stripe_state={
            "status": chosen.status,
            "stripe_customer_id": chosen.customer,
            "stripe_subscription_id": chosen.id,
            "current_period_end": chosen.current_period_end,
            "cancel_at_period_end": chosen.cancel_at_period_end,
            "grace_period_end": grace_end,
            "synced_at": now,
        },
    )
    if chosen is not stripe_subscription and status_rank(stripe_subscription.status) == 0:
        return f"ignored {stripe_subscription.status} {stripe_subscription.id}: the team pays through {chosen.id}"
    if chosen is not stripe_subscription:
        return (
            f"{plan.code} {chosen.status} from {chosen.id}, kept over {stripe_subscription.id} "
            f"({stripe_subscription.status})"
        )
    return f"{plan.code} {chosen.status}"


def _remember(team: Team, subscription: StripeSubscription, now: datetime) -> None:
    KnownSubscription.objects.update_or_create(
        stripe_subscription_id=subscription.id,
        defaults={
            "team": team,
            "status": subscription.status,
            "plan": Plan.for_price(subscription.price_id),
            "synced_at": now,
        },
    )


def _report_duplicates(
    team: Team, chosen: StripeSubscription, live: list[StripeSubscription], now: datetime
) -> None:
    """More than one live subscription is a second charge: say so (once per subscription that joins
    them), naming them all and the one the plan follows, so an operator can cancel and refund."""
    if len(live) < 2:
        return
    rows = list(
        KnownSubscription.objects.select_for_update().filter(stripe_subscription_id__in=[s.id for s in live])
    )
    if all(row.duplicate_reported_at is not None for row in rows):
        return
    for row in rows:
        if row.duplicate_reported_at is None:
            row.duplicate_reported_at = now
            row.save(update_fields=["duplicate_reported_at"])
    statuses = {sub.id: sub.status for sub in live}
    log.warning(
        "team %s has %d live Stripe subscriptions %s; the plan follows %s: cancel and refund the others",
        team.slug,
        len(live),
        statuses,
        chosen.id,
    )
    audit.record(
        None,
        "billing.duplicate_subscription",
        team_id=team.pk,
        object_id=team.slug,
        source="stripe",
        subscriptions=sorted(statuses),
        statuses=statuses,
        kept=chosen.id,
    )


class UnknownPrice(Exception):
    """A subscription is for a Stripe price that no plan is sold at."""


@transaction.atomic
def issue_api_key(team: Team, user: User, **options: Any) -> tuple[ApiKey, str]:
    """accounts.actions.issue_api_key within the plan's API-key cap (the team row is locked so two
    concurrent issues cannot both pass the count)."""
    Team.objects.select_for_update().filter(pk=team.pk).first()
    caps.require_api_key(team.pk)
    return accounts_actions.issue_api_key(team, user, **options)


@transaction.atomic
def add_member(team: Team, user: User, role: str, actor: Principal | None = None) -> Membership:
    """accounts.actions.add_member within the plan's member cap."""
    Team.objects.select_for_update().filter(pk=team.pk).first()
    caps.require_member(team.pk)
    return accounts_actions.add_member(team, user, role, actor=actor)


@transaction.atomic
def invite_member(
    team: Team, email: str, role: str, *, invited_by: User, actor: Principal | None = None
) -> tuple[Invitation, str]:
    """accounts.actions.create_invitation while the plan has room: members and pending invitations
    together, so a team cannot hand out more invitations than it could accept."""
    Team.objects.select_for_update().filter(pk=team.pk).first()
    address = email.strip().lower()
    # A re-sent invitation replaces its pending one, so it does not count twice.
    pending = Invitation.objects.pending().filter(team=team).exclude(email=address).count()
    caps.require(team.pk, "members", used=caps.members_used(team.pk) + pending)
    return accounts_actions.create_invitation(team, address, role, invited_by=invited_by, actor=actor)


@transaction.atomic
def accept_invitation(invitation: Invitation, user: User) -> Membership:
    """accounts.actions.accept_invitation within the plan's member cap (checked again: the plan may
    have changed since the invitation was sent)."""
    Team.objects.select_for_update().filter(pk=invitation.team_id).first()
    caps.require_member(invitation.team_id)
    return accounts_actions.accept_invitation(invitation, user)
