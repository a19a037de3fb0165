"""What a team uses of the rows memory owns, and the plan checks on them (billing holds the caps).

Counts are team-wide on purpose: a plan cap counts every note of the team, including the private
notes and projects that the caller cannot see."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery

from accounts.models import ApiKey, Membership, Team
from billing import caps, standing
from billing.models import Plan
from memory.models import Note, Project
from memory.shapes import results_team


def projects_used(team_id: int) -> int:
    return int(Project.objects.filter(team_id=team_id).count())


def notes_used(team_id: int) -> int:
    return int(Note.objects.filter(team_id=team_id, deleted_at__isnull=True).count())


def require_project(team_id: int, adding: int = 1) -> None:
    caps.require(team_id, "projects", used=projects_used(team_id), adding=adding)


def require_notes(team_id: int, adding: int = 1) -> None:
    caps.require(team_id, "notes", used=notes_used(team_id), adding=adding)


def usage(team_id: int) -> results_team.Usage:
    plan = Plan.of_team(team_id)
    return {
        "plan": {"code": plan.code, "name": plan.name},
        "caps": plan.caps(),
        "usage": {
            "projects": projects_used(team_id),
            "notes": notes_used(team_id),
            "members": caps.members_used(team_id),
            "api_keys": caps.api_keys_used(team_id),
        },
        "subscription": standing.subscription_state(team_id),
        "upgrade_url": caps.upgrade_url(),
    }


# A cap warning shows from this share of a cap (and says "reached" at all of it).
WARN_AT = 0.8


def cap_standing(team_id: int) -> results_team.CapStanding:
    """The team's plan, and the cap nearest its limit when it is at WARN_AT or more of it, with the
    way to raise it (None while every cap has room). One query for the four counts, one for the plan."""
    counted = (
        Team.objects.filter(pk=team_id)
        .annotate(
            projects_n=_count(Project.objects.filter(team_id=OuterRef("pk"))),
            notes_n=_count(Note.objects.filter(team_id=OuterRef("pk"), deleted_at__isnull=True)),
            members_n=_count(Membership.objects.filter(team_id=OuterRef("pk"))),
            api_keys_n=_count(ApiKey.objects.usable().filter(team_id=OuterRef("pk"))),
        )
        .values("projects_n", "notes_n", "members_n", "api_keys_n")
        .first()
    )
    plan = Plan.of_team(team_id)
    if counted is None:
        return {"plan": plan.name, "warning": None}
    used_of: dict[str, Any] = dict(counted)
    limits = plan.caps()
    worst: results_team.CapWarning | None = None
    for cap in ("projects", "notes", "members", "api_keys"):
        limit, used = int(limits[cap]), int(used_of[f"{cap}_n"] or 0)
        if limit <= 0 or used < WARN_AT * limit:
            continue
        share = used / limit
        if worst is None or share > worst["used"] / worst["limit"]:
            worst = {
                "cap": caps.CAP_WORDS[cap],
                "used": used,
                "limit": limit,
                "reached": used >= limit,
                "plan": plan.name,
                "way_out": caps.way_out(),
            }
    return {"plan": plan.name, "warning": worst}


def _count(rows: QuerySet[Any]) -> Subquery:
    return Subquery(
        rows.order_by().values("team_id").annotate(n=Count("pk")).values("n")[:1], output_field=IntegerField()
    )
