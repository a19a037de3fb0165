"""Plan-cap enforcement shared by every write path: a refused write names the cap and the way up.

Billing sits below memory, so the caller counts what it owns and passes the usage in; members and
API keys are accounts' rows and are counted here."""

from __future__ import annotations

from django.conf import settings

from accounts.errors import PlanLimit
from accounts.models import ApiKey, Membership
from accounts.site import absolute_url
from billing.models import Plan, Subscription

CAP_WORDS = {"projects": "projects", "notes": "notes", "members": "members", "api_keys": "API keys"}
# The share of a cap at which every signed-in page starts warning, before writes are refused at 100 %.
WARN_AT_PERCENT = 80


def upgrade_url() -> str:
    return absolute_url("/billing/")


# Who changes a plan on a server that sells none (no Stripe keys): the one sentence every cap message,
# the billing page and the cap warning use, so none of them points at a dead end.
ASK_STAFF = (
    "ask this server's staff to raise the plan (a team owner asks; staff set it in the admin, under "
    "Subscriptions, by the team's name or slug)"
)


def upgrades_on() -> bool:
    return bool(settings.STRIPE_SECRET_KEY)


def way_out() -> str:
    """How this team raises a cap on this server: Checkout at the billing page, or staff."""
    if upgrades_on():
        return f"upgrade at {upgrade_url()}"
    return f"{ASK_STAFF}; {upgrade_url()} lists the plans"


def require(team_id: int, cap: str, *, used: int, adding: int = 1, plan: Plan | None = None) -> None:
    """Refuse with plan_limit when `adding` more of `cap` would pass the team plan's limit."""
    # A caller that read the plan already passes it: the subscription is then read only to explain
    # a refusal.
    subscription = (
        Subscription.objects.select_related("plan").filter(team_id=team_id).first() if plan is None else None
    )
    if plan is None:
        plan = subscription.effective_plan() if subscription is not None else Plan.default()
    limit = int(plan.caps()[cap])
    if used + adding > limit:
        if subscription is None:
            subscription = Subscription.objects.select_related("plan").filter(team_id=team_id).first()
        raise PlanLimit(
            f"The {plan.name} plan allows {limit} {CAP_WORDS[cap]}; this team uses {used}."
            f"{_why_this_plan(subscription, plan)} Nothing was written. Delete some, or {way_out()}.",
            cap=cap,
            limit=limit,
            usage=used,
            upgrade_url=upgrade_url(),
        )


def _why_this_plan(subscription: Subscription | None, plan: Plan) -> str:
    # A team whose payment lapsed subscribed to more than it gets: say so, or the caps look wrong.
    if subscription is None or subscription.grants_plan():
        return ""
    status = subscription.status.replace("_", " ")
    return f" (Its {subscription.plan.name} subscription is {status}, so {plan.name} caps apply until it is paid.)"


def members_used(team_id: int) -> int:
    return int(Membership.objects.filter(team_id=team_id).count())


def api_keys_used(team_id: int) -> int:
    return int(ApiKey.objects.usable().filter(team_id=team_id).count())


def require_member(team_id: int) -> None:
    require(team_id, "members", used=members_used(team_id))


def require_api_key(team_id: int) -> None:
    require(team_id, "api_keys", used=api_keys_used(team_id))
