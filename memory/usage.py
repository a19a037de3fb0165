"""What a team uses of the rows memory owns, and the plan checks on them (billing holds the caps).

Counts are team-wide on purpose: a plan cap counts every note of the team, including the private
notes and projects that the caller cannot see."""

from __future__ import annotations

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


def require_notes(team_id: int, adding: int = 1, plan: Plan | None = None) -> None:
    caps.require(team_id, "notes", used=notes_used(team_id), adding=adding, plan=plan)


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
