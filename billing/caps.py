"""Plan-cap enforcement shared by every write path: a refused write names the cap and the way up.

Billing sits below memory, so the caller counts what it owns and passes the usage in; members and
API keys are accounts' rows and are counted here."""

from __future__ import annotations

from django.conf import settings

from accounts.errors import PlanLimit
from accounts.models import ApiKey, Membership
from billing.models import Plan

CAP_WORDS = {"projects": "projects", "notes": "notes", "members": "members", "api_keys": "API keys"}


def upgrade_url() -> str:
    return f"{settings.SITE_URL}/billing/"


def require(team_id: int, cap: str, *, used: int, adding: int = 1, plan: Plan | None = None) -> None:
    """Refuse with plan_limit when `adding` more of `cap` would pass the team plan's limit."""
    plan = plan or Plan.of_team(team_id)
    limit = int(plan.caps()[cap])
    if used + adding > limit:
        raise PlanLimit(
            f"The {plan.name} plan allows {limit} {CAP_WORDS[cap]}; this team uses {used}. "
            f"Nothing was written. Delete some, or upgrade at {upgrade_url()}",
            cap=cap,
            limit=limit,
            usage=used,
            upgrade_url=upgrade_url(),
        )


def members_used(team_id: int) -> int:
    return int(Membership.objects.filter(team_id=team_id).count())


def api_keys_used(team_id: int) -> int:
    return int(ApiKey.objects.usable().filter(team_id=team_id).count())


def require_member(team_id: int) -> None:
    require(team_id, "members", used=members_used(team_id))


def require_api_key(team_id: int) -> None:
    require(team_id, "api_keys", used=api_keys_used(team_id))
