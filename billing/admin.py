from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from billing import actions
from billing.models import Plan, Subscription


@admin.register(Plan)
class PlanAdmin(admin.ModelAdmin[Plan]):
    list_display = ["code", "name", "price_cents_monthly", "max_projects", "max_notes", "requests_per_minute"]


@admin.register(Subscription)
class SubscriptionAdmin(admin.ModelAdmin[Subscription]):
    list_display = ["team", "plan", "changed_at"]
    list_filter = ["plan"]
    search_fields = ["team__slug", "team__name"]
    raw_id_fields = ["team"]
    readonly_fields = ["changed_at"]

    def save_model(self, request: HttpRequest, obj: Subscription, form: Any, change: bool) -> None:
        # Plan changes go through the audited action so the audit log shows who changed what.
        actions.change_plan(obj.team, obj.plan, actor_id=request.user.pk)
