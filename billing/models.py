"""Plans as data, the subscription that puts a team on one, and the Stripe events that move it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from billing import clock, limits
from billing.plans import ensure_catalogue


class Plan(models.Model):
    code = models.SlugField(max_length=limits.PLAN_CODE.max_length, unique=True)
    name = models.CharField(max_length=limits.PLAN_NAME.max_length)
    price_cents_monthly = models.PositiveIntegerField(default=0)
    max_projects = models.PositiveIntegerField()
    max_notes = models.PositiveIntegerField(help_text="Non-deleted notes across the team.")
    max_revisions_per_note = models.PositiveIntegerField()
    max_members = models.PositiveIntegerField()
    max_api_keys = models.PositiveIntegerField()
    semantic_search = models.BooleanField(default=True)
    requests_per_minute = models.PositiveIntegerField()
    default_context_budget = models.PositiveIntegerField(default=2000)
    stripe_price_id = models.CharField(
        max_length=limits.STRIPE_PRICE_ID.max_length,
        blank=True,
        help_text="The Stripe price of a paid plan (price_…); blank takes STRIPE_PRICE_<CODE> from settings.",
    )
    is_default = models.BooleanField(default=False, help_text="New teams start on the default plan.")
    sort_order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["sort_order"]

    def __str__(self) -> str:
        return self.name

    @classmethod
    def default(cls) -> Plan:
        """The plan of a team with none set: the catalogue's default, created if it is missing."""
        plan = cls.objects.filter(is_default=True).first()
        if plan is None:
            ensure_catalogue(cls)
            plan = cls.objects.get(is_default=True)
        return plan

    @classmethod
    def of_team(cls, team_id: int, now: datetime | None = None) -> Plan:
        """The plan whose caps a team has now: its subscription's while that grants it (paid, or
        unpaid but within the grace period), else the default."""
        subscription = Subscription.objects.select_related("plan").filter(team_id=team_id).first()
        if subscription is None:
            return cls.default()
        return subscription.effective_plan(now)

    @classmethod
    def for_price(cls, price_id: str) -> Plan | None:
        """The plan sold at a Stripe price, from the admin's field or the settings."""
        if not price_id:
            return None
        plan = cls.objects.filter(stripe_price_id=price_id).first()
        if plan is not None:
            return plan
        codes = [code for code, price in settings.STRIPE_PRICE_IDS.items() if price == price_id]
        return cls.objects.filter(code__in=codes, stripe_price_id="").first()

    @property
    def price_id(self) -> str:
        """The Stripe price to sell this plan at; "" when it cannot be bought (free, or not set up)."""
        return self.stripe_price_id or str(settings.STRIPE_PRICE_IDS.get(self.code, ""))

    def caps(self) -> dict[str, int | bool]:
        return {
            "projects": self.max_projects,
            "notes": self.max_notes,
            "revisions_per_note": self.max_revisions_per_note,
            "members": self.max_members,
            "api_keys": self.max_api_keys,
            "semantic_search": self.semantic_search,
            "requests_per_minute": self.requests_per_minute,
            "default_context_budget": self.default_context_budget,
        }


class Status(models.TextChoices):
    """Stripe's subscription statuses, kept as Stripe spells them."""

    ACTIVE = "active"
    TRIALING = "trialing"
    PAST_DUE = "past_due"
    UNPAID = "unpaid"
    INCOMPLETE = "incomplete"
    INCOMPLETE_EXPIRED = "incomplete_expired"
    CANCELED = "canceled"
    PAUSED = "paused"


PAID_STATUSES = frozenset({Status.ACTIVE, Status.TRIALING})
# A payment failed: the plan holds until the grace period ends, then the default plan's caps apply.
GRACE_STATUSES = frozenset({Status.PAST_DUE, Status.UNPAID})


class SubscriptionQuerySet(models.QuerySet["Subscription"]):
    def for_stripe(self, subscription_id: str = "", customer_id: str = "") -> SubscriptionQuerySet:
        """The row tracking a Stripe subscription, else the one of its customer."""
        if subscription_id:
            by_subscription = self.filter(stripe_subscription_id=subscription_id)
            if by_subscription.exists():
                return by_subscription
        if customer_id:
            return self.filter(stripe_customer_id=customer_id)
        return self.none()


class Subscription(models.Model):
    """Which plan a team is on and, when it pays through Stripe, the state of that subscription.

    A team without a row is on the default plan. Staff set plans in the admin (status active, no
    Stripe ids); Stripe's webhooks keep the rest in step with Stripe."""

    team = models.OneToOneField("accounts.Team", on_delete=models.CASCADE, related_name="subscription")
    plan = models.ForeignKey(Plan, on_delete=models.PROTECT, related_name="subscriptions")
    changed_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ACTIVE)
    stripe_customer_id = models.CharField(max_length=limits.STRIPE_ID.max_length, blank=True)
    stripe_subscription_id = models.CharField(max_length=limits.STRIPE_ID.max_length, blank=True)
    current_period_end = models.DateTimeField(null=True, blank=True)
    cancel_at_period_end = models.BooleanField(default=False)
    grace_period_end = models.DateTimeField(
        null=True, blank=True, help_text="After a failed payment: when the default plan's caps take over."
    )
    synced_at = models.DateTimeField(null=True, blank=True, help_text="Last read from Stripe.")

    objects = SubscriptionQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["stripe_customer_id"],
                condition=~models.Q(stripe_customer_id=""),
                name="subscription_stripe_customer_unique",
            ),
            models.UniqueConstraint(
                fields=["stripe_subscription_id"],
                condition=~models.Q(stripe_subscription_id=""),
                name="subscription_stripe_subscription_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team_id} on {self.plan_id} ({self.status})"

    def grants_plan(self, now: datetime | None = None) -> bool:
        if self.status in PAID_STATUSES:
            return True
        if self.status in GRACE_STATUSES:
            # No recorded end means the grace period was never started (a row set by hand): keep the plan.
            return self.grace_period_end is None or (now or clock.now()) < self.grace_period_end
        return False

    def effective_plan(self, now: datetime | None = None) -> Plan:
        return self.plan if self.grants_plan(now) else Plan.default()

    @property
    def is_live(self) -> bool:
        """A Stripe subscription that still bills (so a new Checkout would charge twice)."""
        return bool(self.stripe_subscription_id) and self.status in PAID_STATUSES | GRACE_STATUSES


# A live subscription's statuses, best first: the plan follows a paying subscription over one whose
# payment failed, and either over one that has ended.
STATUS_RANK: dict[str, int] = {
    **{str(status): 2 for status in PAID_STATUSES},
    **{str(status): 1 for status in GRACE_STATUSES},
}


def status_rank(status: str) -> int:
    return STATUS_RANK.get(status, 0)


class PendingCheckoutQuerySet(models.QuerySet["PendingCheckout"]):
    def open(self, now: datetime | None = None) -> PendingCheckoutQuerySet:
        """Sessions the buyer may still complete: not closed by an event and not past Stripe's expiry."""
        return self.filter(closed_at__isnull=True, expires_at__gt=now or clock.now())


class PendingCheckout(models.Model):
    """A Stripe Checkout Session opened for a team that no event has closed yet.

    While one is open a second Checkout is not opened (the same plan's session is handed out again,
    another plan is refused): two sessions paid before the first webhook would give the team two
    live subscriptions. checkout.session.completed and .expired close it; Stripe's expiry ends it too."""

    class Outcome(models.TextChoices):
        COMPLETED = "completed"
        EXPIRED = "expired"

    team = models.ForeignKey("accounts.Team", on_delete=models.CASCADE, related_name="+")
    plan = models.ForeignKey(Plan, on_delete=models.PROTECT, related_name="+")
    session_id = models.CharField(max_length=limits.STRIPE_ID.max_length, unique=True)
    url = models.TextField(max_length=limits.CHECKOUT_URL.max_length)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(help_text="Stripe's expiry of the session.")
    closed_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, blank=True)

    objects = PendingCheckoutQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["team", "closed_at"], name="pending_checkout_team_idx")]

    def __str__(self) -> str:
        return f"{self.session_id} ({self.outcome or 'open'})"


class KnownSubscription(models.Model):
    """Every Stripe subscription seen for a team, with its last known status: the team's Subscription
    row follows the best of them (STATUS_RANK), and more than one live is reported."""

    team = models.ForeignKey("accounts.Team", on_delete=models.CASCADE, related_name="+")
    stripe_subscription_id = models.CharField(max_length=limits.STRIPE_ID.max_length, unique=True)
    status = models.CharField(max_length=20, choices=Status.choices)
    plan = models.ForeignKey(Plan, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    first_seen_at = models.DateTimeField(default=timezone.now)
    synced_at = models.DateTimeField(default=timezone.now)
    duplicate_reported_at = models.DateTimeField(
        null=True, blank=True, help_text="When it was reported as a second live subscription of the team."
    )

    class Meta:
        ordering = ["-first_seen_at"]

    def __str__(self) -> str:
        return f"{self.stripe_subscription_id} ({self.status})"

    @property
    def rank(self) -> int:
        return status_rank(self.status)


class StripeEvent(models.Model):
    """Each Stripe webhook event, stored once (Stripe redelivers) and applied by a task."""

    class State(models.TextChoices):
        RECEIVED = "received"
        PROCESSED = "processed"
        IGNORED = "ignored"  # a type we do not handle, or about no team of ours
        FAILED = "failed"

    event_id = models.CharField(max_length=limits.STRIPE_ID.max_length, unique=True)
    type = models.CharField(max_length=limits.STRIPE_EVENT_TYPE.max_length)
    payload = models.JSONField()
    livemode = models.BooleanField(default=False)
    created = models.DateTimeField(help_text="When Stripe created the event.")
    state = models.CharField(max_length=10, choices=State.choices, default=State.RECEIVED)
    team = models.ForeignKey(
        "accounts.Team", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    attempts = models.PositiveIntegerField(default=0)
    outcome = models.CharField(max_length=limits.STRIPE_EVENT_OUTCOME.max_length, blank=True)
    error = models.TextField(max_length=limits.STRIPE_EVENT_ERROR.max_length, blank=True)
    received_at = models.DateTimeField(default=timezone.now)
    processed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-received_at"]
        indexes = [models.Index(fields=["state", "received_at"], name="stripe_event_state_idx")]

    def __str__(self) -> str:
        return f"{self.event_id} {self.type} ({self.state})"

    @property
    def data_object(self) -> dict[str, Any]:
        obj = self.payload.get("data", {}).get("object", {})
        return obj if isinstance(obj, dict) else {}
