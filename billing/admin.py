from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from accounts.models import AuditEvent
from billing import actions, webhooks
from billing.models import KnownSubscription, PendingCheckout, Plan, StripeEvent, Subscription


@admin.register(Plan)
class PlanAdmin(admin.ModelAdmin[Plan]):
    list_display = [
        "code",
        "name",
        "price_cents_monthly",
        "stripe_price_id",
        "max_projects",
        "max_notes",
        "requests_per_minute",
    ]


PLAN_HISTORY_ROWS = 50


@admin.register(Subscription)
class SubscriptionAdmin(admin.ModelAdmin[Subscription]):
    list_display = ["team", "plan", "status", "current_period_end", "grace_period_end", "changed_at"]
    list_filter = ["plan", "status"]
    search_fields = ["team__slug", "team__name", "stripe_customer_id", "stripe_subscription_id"]
    # Staff pick the team by typing its name or slug (TeamAdmin.search_fields), never a numeric id.
    autocomplete_fields = ["team"]
    # Only the plan is staff's to set; the rest mirrors Stripe and is written by its webhooks.
    readonly_fields = [
        "plan_history",
        "changed_at",
        "status",
        "stripe_customer_id",
        "stripe_subscription_id",
        "current_period_end",
        "cancel_at_period_end",
        "grace_period_end",
        "synced_at",
    ]

    @admin.display(description="Plan history")
    def plan_history(self, obj: Subscription) -> SafeString:
        """Every plan change of the team, newest first: when, from and to, and who (staff, Stripe)."""
        if obj.pk is None:
            return format_html("{}", "—")
        events = (
            AuditEvent.objects.filter(team_id=obj.team_id, action="team.plan_changed")
            .select_related("actor")
            .order_by("-created_at")[:PLAN_HISTORY_ROWS]
        )
        rows = [
            (
                f"{event.created_at:%Y-%m-%d %H:%M} UTC",
                event.detail.get("old", "?"),
                event.detail.get("new", "?"),
                "Stripe"
                if event.detail.get("source") == "stripe"
                else (event.actor.email if event.actor else "system"),
            )
            for event in events
        ]
        if not rows:
            return format_html("{}", "No plan change recorded yet.")
        return format_html(
            '<table class="plan-history"><thead><tr><th>When</th><th>From</th><th>To</th><th>By</th></tr></thead>'
            "<tbody>{}</tbody></table>",
            format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", rows),
        )

    def save_model(self, request: HttpRequest, obj: Subscription, form: Any, change: bool) -> None:
        # Plan changes go through the audited action so the audit log shows who changed what.
        actions.change_plan(obj.team, obj.plan, actor_id=request.user.pk)


@admin.register(StripeEvent)
class StripeEventAdmin(admin.ModelAdmin[StripeEvent]):
    list_display = ["event_id", "type", "state", "team", "attempts", "outcome", "received_at"]
    list_filter = ["state", "type"]
    search_fields = ["event_id", "team__slug"]
    actions = ["reprocess"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: StripeEvent | None = None) -> bool:
        return False  # Stripe's record: read it, reprocess it, never edit it

    @admin.action(description="Apply failed events again")
    def reprocess(self, request: HttpRequest, queryset: QuerySet[StripeEvent]) -> None:
        done = failed = 0
        for event in queryset.filter(state=StripeEvent.State.FAILED):
            try:
                webhooks.process(event.pk)
                done += 1
            except Exception:  # recorded on the row by the wrapper
                failed += 1
        self.message_user(request, f"{done} applied, {failed} failed again.", messages.INFO)


class StripeRecordAdmin(admin.ModelAdmin[Any]):
    """Rows that mirror Stripe: read them, never add or edit them here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(PendingCheckout)
class PendingCheckoutAdmin(StripeRecordAdmin):
    list_display = ["session_id", "team", "plan", "created_at", "expires_at", "closed_at", "outcome"]
    list_filter = ["outcome", "plan"]
    search_fields = ["session_id", "team__slug"]


@admin.register(KnownSubscription)
class KnownSubscriptionAdmin(StripeRecordAdmin):
    """Every Stripe subscription seen per team; "reported as duplicate" marks a team charged twice."""

    list_display = ["stripe_subscription_id", "team", "plan", "status", "duplicate_reported_at", "synced_at"]
    list_filter = ["status", ("duplicate_reported_at", admin.EmptyFieldListFilter)]
    search_fields = ["stripe_subscription_id", "team__slug"]
