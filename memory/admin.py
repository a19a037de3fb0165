from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from memory.models import Project, ScreeningRule


@admin.register(Project)
class ProjectAdmin(admin.ModelAdmin[Project]):
    """Read-only: project edits go through the store, where they are screened and audited."""

    list_display = ["slug", "name", "team", "created_at"]
    search_fields = ["slug", "name", "team__slug"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ScreeningRule)
class ScreeningRuleAdmin(admin.ModelAdmin[ScreeningRule]):
    list_display = ["team", "kind", "name", "created_at"]
    list_filter = ["kind"]
    readonly_fields = ["team", "kind", "name", "value", "created_by", "created_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # teams manage their rules through the store, where additions are audited
