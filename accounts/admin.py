from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.http import HttpRequest

from accounts import actions
from accounts.models import ApiKey, Membership, Team, User


@admin.register(User)
class UserAdmin(BaseUserAdmin[User]):
    ordering = ["email"]
    list_display = ["email", "name", "is_staff", "is_active", "date_joined"]
    search_fields = ["email", "name"]
    fieldsets = (
        (None, {"fields": ("email", "password", "name")}),
        ("Permissions", {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")}),
        ("Dates", {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = ((None, {"classes": ("wide",), "fields": ("email", "password1", "password2")}),)
    filter_horizontal = ("groups", "user_permissions")
    list_filter = ("is_staff", "is_superuser", "is_active")


class MembershipInline(admin.TabularInline[Membership, Team]):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin[Team]):
    list_display = ["slug", "name", "plan", "created_at"]
    search_fields = ["slug", "name"]
    list_filter = ["plan"]
    inlines = [MembershipInline]

    def save_model(self, request: HttpRequest, obj: Team, form: Any, change: bool) -> None:
        # Plan changes go through the audited action so the audit log shows who changed what.
        if change and "plan" in form.changed_data and obj.plan is not None:
            plan = obj.plan
            obj.plan = Team.objects.get(pk=obj.pk).plan
            super().save_model(request, obj, form, change)
            actions.change_plan(obj, plan, actor_id=request.user.pk)
        else:
            super().save_model(request, obj, form, change)


@admin.register(ApiKey)
class ApiKeyAdmin(admin.ModelAdmin[ApiKey]):
    list_display = [
        "display_prefix",
        "name",
        "team",
        "user",
        "project",
        "read_only",
        "revoked_at",
        "last_used_at",
    ]
    list_filter = ["read_only"]
    search_fields = ["lookup", "name", "team__slug", "user__email"]
    readonly_fields = ["lookup", "digest", "created_at", "last_used_at"]
    raw_id_fields = ["team", "user", "project"]
