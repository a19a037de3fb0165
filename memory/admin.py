"""Staff moderation of memory in the Django admin.

Everything here is read-only except moderation, which goes through the store with a staff principal
(accounts.principal.principal_for_staff), so each change is versioned, screened and audited with the
staff user and the team. Private notes are left out of every queryset: staff never see them, nor
their revisions and links.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.contrib import admin, messages
from django.db.models import Model, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.views.decorators.http import require_POST

from accounts.errors import StoreError
from accounts.models import Team, User
from accounts.principal import Principal, principal_for_staff
from memory import inputs, store
from memory.models import (
    IdempotencyRecord,
    LinkKind,
    Note,
    NoteLink,
    NoteRevision,
    NoteStatus,
    Project,
    ScreeningRule,
    TransferJob,
    Visibility,
)

MODERATION_TEAMS = 20  # teams per moderation page; each shows its newest conflicts
MODERATION_PER_TEAM = 25
RESOLUTION_LABELS = inputs.RESOLUTION_LABELS
# A note disputed on its own has no B: its two resolutions, worded for one note.
LONE_LABELS = {"both_true": "Keep as current", "a_historical": "Mark historical"}


M = TypeVar("M", bound=Model)


class ReadOnlyAdmin(admin.ModelAdmin[M]):
    """Rows written by the application only: staff look, the store writes."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Project)
class ProjectAdmin(ReadOnlyAdmin[Project]):
    """Read-only: project edits go through the store, where they are screened and audited."""

    list_display = ["slug", "name", "team", "public_id", "created_at"]
    search_fields = ["slug", "name", "public_id", "team__slug"]
    list_select_related = ["team"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return True  # a whole project may go; its notes go with it

    def delete_model(self, request: HttpRequest, obj: Project) -> None:
        # Through the store as the staff user: the project's keys are revoked and the deletion audited.
        user = request.user
        principal = principal_for_staff(user, obj.team_id) if isinstance(user, User) else None
        if principal is None:
            raise Http404("Only active staff delete projects.")
        store.delete_project(principal, obj.slug)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Project]) -> None:
        for project in queryset:
            self.delete_model(request, project)


@admin.register(ScreeningRule)
class ScreeningRuleAdmin(admin.ModelAdmin[ScreeningRule]):
    list_display = ["team", "kind", "name", "created_at"]
    list_filter = ["kind"]
    search_fields = ["name", "team__slug"]
    readonly_fields = ["team", "kind", "name", "value", "created_by", "created_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # teams manage their rules through the store, where additions are audited


class ConflictFilter(admin.SimpleListFilter):
    title = "conflict"
    parameter_name = "conflict"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            ("disputed", "Disputed"),
            ("contradicted", "In a contradiction"),
            ("unfinished", "Replaced but still current"),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "disputed":
            return queryset.filter(status=NoteStatus.DISPUTED)
        if self.value() == "contradicted":
            links = NoteLink.objects.filter(kind=LinkKind.CONTRADICTS)
            return queryset.filter(
                Q(pk__in=links.values("from_note_id")) | Q(pk__in=links.values("to_note_id"))
            )
        if self.value() == "unfinished":
            return queryset.filter(status=NoteStatus.CURRENT, superseded_by__isnull=False)
        return queryset


class DeletedFilter(admin.SimpleListFilter):
    title = "deleted"
    parameter_name = "deleted"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("no", "Live"), ("yes", "Deleted")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() in ("yes", "no"):
            return queryset.filter(deleted_at__isnull=self.value() == "no")
        return queryset


def _moderate(
    request: HttpRequest, notes: QuerySet[Note], act: Callable[[Principal, str], Any]
) -> tuple[int, list[str]]:
    """Run `act(staff principal, note id)` on each note through the store; errors are reported, not raised."""
    user = request.user
    changed, problems = 0, []
    for note_id, team_id in notes.values_list("public_id", "team_id"):
        principal = principal_for_staff(user, team_id) if isinstance(user, User) else None
        if principal is None:
            problems.append(f"{note_id}: not allowed")
            continue
        try:
            act(principal, note_id)
        except StoreError as error:
            problems.append(f"{note_id}: {error.message}")
        else:
            changed += 1
    return changed, problems


@admin.register(Note)
class NoteAdmin(ReadOnlyAdmin[Note]):
    """Team notes only; moderation actions go through the store as the staff user."""

    list_display = ["public_id", "title", "team", "project", "type", "status", "updated_at", "deleted_at"]
    list_filter = [ConflictFilter, "status", "type", DeletedFilter]
    search_fields = ["public_id", "title", "project__slug", "team__slug"]
    list_select_related = ["team", "project"]
    fields = [
        "public_id",
        "team",
        "project",
        "type",
        "status",
        "title",
        "body",
        "tags",
        "importance",
        "source",
        "author",
        "last_edited_by",
        "last_edited_client",
        "superseded_by",
        "version",
        "created_at",
        "updated_at",
        "deleted_at",
        "delete_reason",
    ]
    actions = ["settle_dispute", "mark_historical", "restore"]
    change_list_template = "admin/memory/note/change_list.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Note]:
        # Never a private note, whoever the staff member is: not listed, not opened, not acted on.
        return (
            super()
            .get_queryset(request)
            .filter(visibility=Visibility.TEAM)
            .defer("embedding", "search_document")
        )

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return bool(
            request.user.is_active and request.user.is_staff and request.user.has_perm("memory.change_note")
        )

    def _report(self, request: HttpRequest, changed: int, problems: list[str], done: str) -> None:
        if changed:
            self.message_user(
                request, f"{changed} note{'s' if changed != 1 else ''} {done}.", messages.SUCCESS
            )
        for problem in problems:
            self.message_user(request, problem, messages.ERROR)

    @admin.action(description="Settle the dispute: keep as current", permissions=["moderate"])
    def settle_dispute(self, request: HttpRequest, queryset: QuerySet[Note]) -> None:
        self._report(
            request,
            *_moderate(
                request,
                queryset,
                lambda principal, note: store.resolve_conflict(principal, note, None, "both_true"),
            ),
            "kept as current",
        )

    @admin.action(description="Mark historical", permissions=["moderate"])
    def mark_historical(self, request: HttpRequest, queryset: QuerySet[Note]) -> None:
        self._report(
            request,
            *_moderate(
                request,
                queryset,
                lambda principal, note: store.update_note(principal, note, status=NoteStatus.HISTORICAL),
            ),
            "marked historical",
        )

    @admin.action(description="Restore deleted notes", permissions=["moderate"])
    def restore(self, request: HttpRequest, queryset: QuerySet[Note]) -> None:
        self._report(
            request,
            *_moderate(request, queryset, lambda principal, note: store.restore_note(principal, note)),
            "restored",
        )

    def get_urls(self) -> list[URLPattern]:
        own = [
            path(
                "moderation/",
                self.admin_site.admin_view(self.moderation_view),
                name="memory_note_moderation",
            ),
            path(
                "moderation/resolve/",
                self.admin_site.admin_view(require_POST(self.resolve_view)),
                name="memory_note_moderation_resolve",
            ),
        ]
        return own + super().get_urls()

    def moderation_view(self, request: HttpRequest) -> HttpResponse:
        """Open conflicts of every team, grouped by team, with the store's resolutions."""
        if not self.has_view_permission(request):
            raise Http404("No moderation for this account.")
        user = request.user
        assert isinstance(user, User)
        start = int(request.GET.get("teams", "0")) if request.GET.get("teams", "").isdigit() else 0
        teams = list(_teams_in_conflict().order_by("slug")[start : start + MODERATION_TEAMS + 1])
        sections = []
        for team in teams[:MODERATION_TEAMS]:
            principal = principal_for_staff(user, team.pk)
            if principal is None:
                continue
            queue = store.list_conflicts(principal, limit=MODERATION_PER_TEAM)
            if queue["total"]:
                # The store's conflicts, each with the labelled buttons the page shows for it.
                shown = [
                    {
                        **conflict,
                        "buttons": [
                            (r, (RESOLUTION_LABELS if conflict["b"] else LONE_LABELS)[r])
                            for r in conflict["resolutions"]
                        ],
                    }
                    for conflict in queue["conflicts"]
                ]
                sections.append({"team": team, **queue, "conflicts": shown})
        context = {
            **self.admin_site.each_context(request),
            "title": "Moderation: open conflicts",
            "opts": self.model._meta,
            "sections": sections,
            "can_moderate": self.has_moderate_permission(request),
            "more_teams": start + MODERATION_TEAMS if len(teams) > MODERATION_TEAMS else None,
        }
        return TemplateResponse(request, "admin/memory/moderation.html", context)

    def resolve_view(self, request: HttpRequest) -> HttpResponse:
        back = HttpResponseRedirect(reverse("admin:memory_note_moderation"))
        user = request.user
        team_id = request.POST.get("team", "")
        if not self.has_moderate_permission(request) or not isinstance(user, User):
            self.message_user(request, "Moderating needs the permission to change notes.", messages.ERROR)
            return back
        principal = (
            principal_for_staff(user, int(team_id)) if team_id.isdigit() and len(team_id) < 19 else None
        )
        resolution = request.POST.get("resolution", "")
        if principal is None or resolution not in inputs.RESOLUTIONS:
            self.message_user(request, "That resolution was not understood.", messages.ERROR)
            return back
        b = request.POST.get("b") or None
        try:
            store.resolve_conflict(
                principal,
                request.POST.get("a", ""),
                b,
                resolution,
                a_version=_version(request.POST.get("a_version")),
                b_version=_version(request.POST.get("b_version")),
            )
        except StoreError as error:
            self.message_user(request, error.message, messages.ERROR)
        else:
            label = (RESOLUTION_LABELS if b else LONE_LABELS)[resolution]
            self.message_user(request, f"Resolved ({label}).", messages.SUCCESS)
        return back


def _version(raw: str | None) -> int | None:
    return int(raw) if raw and raw.isdigit() and len(raw) < 11 else None


def _teams_in_conflict() -> QuerySet[Team]:
    """Teams with a conflict among their shared live notes (the store's queue decides what shows)."""
    shared = Note.objects.filter(visibility=Visibility.TEAM, deleted_at__isnull=True)
    disputed = shared.filter(status=NoteStatus.DISPUTED).values("team_id")
    unfinished = shared.filter(status=NoteStatus.CURRENT, superseded_by__isnull=False).values("team_id")
    contradicted = NoteLink.objects.filter(
        kind=LinkKind.CONTRADICTS, from_note__in=shared, to_note__in=shared
    ).values("from_note__team_id")
    return Team.objects.filter(Q(pk__in=disputed) | Q(pk__in=unfinished) | Q(pk__in=contradicted))


@admin.register(NoteRevision)
class NoteRevisionAdmin(ReadOnlyAdmin[NoteRevision]):
    list_display = ["note", "version", "title", "status", "edited_by", "client", "created_at"]
    list_filter = ["status", "type"]
    search_fields = ["note__public_id", "title"]
    list_select_related = ["note", "edited_by"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[NoteRevision]:
        return super().get_queryset(request).filter(note__visibility=Visibility.TEAM)


@admin.register(NoteLink)
class NoteLinkAdmin(ReadOnlyAdmin[NoteLink]):
    list_display = ["from_note", "kind", "to_note", "created_by", "created_at"]
    list_filter = ["kind"]
    search_fields = ["from_note__public_id", "to_note__public_id"]
    list_select_related = ["from_note", "to_note", "created_by"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[NoteLink]:
        return (
            super()
            .get_queryset(request)
            .filter(from_note__visibility=Visibility.TEAM, to_note__visibility=Visibility.TEAM)
        )


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(ReadOnlyAdmin[IdempotencyRecord]):
    """The stored response is left out: it may hold a private note's fields."""

    list_display = ["operation", "team", "user", "project", "created_at"]
    list_filter = ["operation"]
    search_fields = ["operation", "team__slug", "user__email"]
    fields = ["team", "user", "project", "operation", "key", "request_hash", "created_at"]
    list_select_related = ["team", "user", "project"]


@admin.register(TransferJob)
class TransferJobAdmin(ReadOnlyAdmin[TransferJob]):
    """Export and import jobs: their state only. The staged document and the built file are left out:
    they hold a project's notes, private ones included."""

    list_display = [
        "public_id",
        "kind",
        "status",
        "team",
        "user",
        "project",
        "progress",
        "total",
        "created_at",
    ]
    list_filter = ["kind", "status"]
    search_fields = ["public_id", "team__slug", "user__email"]
    fields = [
        "public_id",
        "kind",
        "format",
        "status",
        "team",
        "user",
        "project",
        "progress",
        "total",
        "error",
    ]
    list_select_related = ["team", "user", "project"]
