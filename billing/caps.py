"""Plan-cap enforcement shared by every write path: a refused write names the cap and the way up."""

from __future__ import annotations

from django.conf import settings

from accounts.models import Team
from memory.errors import PlanLimit


def upgrade_url() -> str:
    return f"{settings.SITE_URL}/billing/"


def _refuse(team: Team, cap: str, limit: int, usage: int, what: str) -> PlanLimit:
    plan = team.effective_plan
    return PlanLimit(
        f"The {plan.name} plan allows {limit} {what}; this team uses {usage}. Nothing was written. "
        f"Delete some, or upgrade at {upgrade_url()}",
        cap=cap,
        limit=limit,
        usage=usage,
        upgrade_url=upgrade_url(),
    )


def require_notes(team: Team, count: int = 1) -> None:
    used = team.notes_used()
    limit = team.effective_plan.max_notes
    if used + count > limit:
        raise _refuse(team, "notes", limit, used, "notes")


def require_project(team: Team) -> None:
    used = team.projects_used()
    limit = team.effective_plan.max_projects
    if used + 1 > limit:
        raise _refuse(team, "projects", limit, used, "projects")


def require_api_key(team: Team) -> None:
    used = team.api_keys_used()
    limit = team.effective_plan.max_api_keys
    if used + 1 > limit:
        raise _refuse(team, "api_keys", limit, used, "API keys")


def require_member(team: Team) -> None:
    used = team.members_used()
    limit = team.effective_plan.max_members
    if used + 1 > limit:
        raise _refuse(team, "members", limit, used, "members")
