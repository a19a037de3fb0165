"""Plans as data: each team is on one, and the store checks its caps before it writes."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from billing.plans import ensure_catalogue


class Plan(models.Model):
    code = models.SlugField(max_length=30, unique=True)
    name = models.CharField(max_length=60)
    price_cents_monthly = models.PositiveIntegerField(default=0)
    max_projects = models.PositiveIntegerField()
    max_notes = models.PositiveIntegerField(help_text="Non-deleted notes across the team.")
    max_revisions_per_note = models.PositiveIntegerField()
    max_members = models.PositiveIntegerField()
    max_api_keys = models.PositiveIntegerField()
    semantic_search = models.BooleanField(default=True)
    requests_per_minute = models.PositiveIntegerField()
    default_context_budget = models.PositiveIntegerField(default=2000)
    stripe_price_id = models.CharField(max_length=100, blank=True)
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
    def of_team(cls, team_id: int) -> Plan:
        """The plan a team is on: its subscription's, else the default."""
        plan = cls.objects.filter(subscriptions__team_id=team_id).first()
        return plan if plan is not None else cls.default()

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


class Subscription(models.Model):
    """Which plan a team is on. A team without a row is on the default plan."""

    team = models.OneToOneField("accounts.Team", on_delete=models.CASCADE, related_name="subscription")
    plan = models.ForeignKey(Plan, on_delete=models.PROTECT, related_name="subscriptions")
    changed_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.team_id} on {self.plan_id}"
