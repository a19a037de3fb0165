from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.http import HttpRequest

from accounts.models import ApiKey, AuditEvent, Invitation, Membership, OAuthConnection, Team, User


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
    """Read-only: members are added, changed and removed on the members page, where every change is
    checked (one owner at least, owner role by owners) and audited."""

    model = Membership
    extra = 0
    raw_id_fields = ["user"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin[Team]):
    # The plan is billing's (billing/admin.py: subscriptions), so plan changes stay audited there.
    # Renames go through the team settings page, where they are screened and audited.
    list_display = ["slug", "name", "public_id", "created_at"]
    search_fields = ["slug", "name", "public_id"]
    readonly_fields = ["public_id", "name", "slug"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin[Membership]):
    """Read-only, like MembershipInline: membership changes are audited on the members page."""

    list_display = ["user", "team", "role", "created_at"]
    list_filter = ["role"]
    search_fields = ["user__email", "team__slug", "team__name"]
    raw_id_fields = ["team", "user"]
    list_select_related = ["team", "user"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin[Invitation]):
    """Read-only: invitations are sent from the members page (the link's secret is never stored)."""

    list_display = [
        "email",
        "team",
        "role",
        "invited_by",
        "created_at",
        "expires_at",
        "accepted_at",
        "revoked_at",
    ]
    list_filter = ["role"]
    search_fields = ["email", "public_id", "team__slug"]
    exclude = ["digest"]
    list_select_related = ["team", "invited_by"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ApiKey)
class ApiKeyAdmin(admin.ModelAdmin[ApiKey]):
    """Read-only: keys are created and revoked through the store (keys page, REST, MCP), where the
    one key rule applies and every change is audited."""

    list_display = [
        "display_prefix",
        "name",
        "team",
        "user",
        "project_id",
        "read_only",
        "revoked_at",
        "last_used_at",
    ]
    list_filter = ["read_only"]
    search_fields = ["lookup", "name", "team__slug", "user__email"]
    exclude = ["digest"]
    raw_id_fields = ["team", "user"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(OAuthConnection)
class OAuthConnectionAdmin(admin.ModelAdmin[OAuthConnection]):
    """Read-only: a connection is made on the consent page and revoked on the Connected apps page,
    which also revokes its tokens."""

    list_display = ["public_id", "application", "user", "team", "project_id", "read_only", "last_used_at"]
    list_filter = ["read_only"]
    search_fields = ["public_id", "user__email", "team__slug", "application__name"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin[AuditEvent]):
    """Read-only for staff: the audit log is written by the application only."""

    list_display = ["created_at", "action", "team", "actor", "client", "object_id"]
    list_filter = ["action"]
    search_fields = ["action", "object_id", "team__slug", "actor__email", "project_slug"]
    date_hierarchy = "created_at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
