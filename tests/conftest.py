"""The named cast every test shares.

Team "acme" (plan: developer) has Olivia the owner, Mia a member and Victor a viewer, and two
projects, payments and website. Oscar the outsider owns team "globex" with its project lab.
"""

from __future__ import annotations

import os
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from accounts import actions
from accounts.models import Membership, Role, Team, User
from accounts.principal import Principal, principal_for_membership
from billing import actions as billing_actions
from billing.models import Plan
from billing.plans import ensure_catalogue
from memory.models import Project
from tests import tiers

# The live MCP server and client fixtures (mcp_url, mcp) for every test package, the in-process MCP
# client (local_mcp), and the headless browser on top of the live server (tests/web/browser.py).
pytest_plugins = ["tests.live_mcp", "tests.inprocess_mcp", "tests.web.browser"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    tiers.mark_by_fixtures(items)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    # Lets the helpers that start servers, browsers and processes check the test's tier.
    tiers.running = item
    try:
        return (yield)
    finally:
        tiers.running = None


@dataclass
class Cast:
    acme: Team
    globex: Team
    plan: Plan  # acme's (and globex's) plan: developer
    owner: User
    member: User
    viewer: User
    outsider: User
    payments: Project
    website: Project
    lab: Project

    def principal(self, user: User, *, project: Project | None = None, read_only: bool = False) -> Principal:
        team = self.globex if user == self.outsider else self.acme
        membership = Membership.objects.get(team=team, user=user)
        return principal_for_membership(
            membership,
            project_id=project.pk if project else None,
            read_only=read_only,
            client_name="pytest",
            credential_id=f"test:{user.pk}",
        )

    def key(self, user: User, *, project: Project | None = None, read_only: bool = False) -> str:
        team = self.globex if user == self.outsider else self.acme
        _, raw = actions.issue_api_key(
            team, user, project_id=project.pk if project else None, read_only=read_only, name="test key"
        )
        return raw


def make_cast() -> Cast:
    ensure_catalogue(Plan)  # transactional tests flush the plans the migration seeded
    developer = Plan.objects.get(code="developer")
    owner = actions.create_user("olivia@acme.test", "correct horse battery", name="Olivia Owner")
    member = actions.create_user("mia@acme.test", "correct horse battery", name="Mia Member")
    viewer = actions.create_user("victor@acme.test", "correct horse battery", name="Victor Viewer")
    outsider = actions.create_user("oscar@globex.test", "correct horse battery", name="Oscar Outsider")
    acme = actions.create_team(owner, "Acme", "acme")
    billing_actions.change_plan(acme, developer)
    Membership.objects.create(team=acme, user=member, role=Role.MEMBER)
    Membership.objects.create(team=acme, user=viewer, role=Role.VIEWER)
    globex = actions.create_team(outsider, "Globex", "globex")
    billing_actions.change_plan(globex, developer)
    payments = Project.objects.create(team=acme, slug="payments", name="Payments API")
    website = Project.objects.create(team=acme, slug="website", name="Website")
    lab = Project.objects.create(team=globex, slug="lab", name="Secret lab")
    return Cast(acme, globex, developer, owner, member, viewer, outsider, payments, website, lab)


@pytest.fixture
def cast(db: None) -> Cast:
    return make_cast()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    # PBKDF2 costs ~0.3 s a user by design; tests create many users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None) -> None:
    # One test database per pytest process, so runs side by side (CI, a developer, a benchmark) never
    # fight over test_knownbase.
    from django.conf import settings

    default: dict[str, Any] = settings.DATABASES["default"]
    default.setdefault("TEST", {})["NAME"] = f"test_{default['NAME']}_{os.getpid()}"


@pytest.fixture(autouse=True)
def _no_ip_rate_limit(settings: Any) -> None:
    # The whole suite talks to /mcp from 127.0.0.1, far above any per-address limit;
    # tests/mcp_gateway/test_rate_limits.py sets its own.
    settings.RATE_LIMIT_PER_IP_PER_MINUTE = 0
    # Likewise /api without a credential (tests/api/test_anonymous_rate_limit.py sets its own).
    settings.API_ANONYMOUS_PER_IP_PER_MINUTE = 0


@pytest.fixture(autouse=True)
def _fresh_query_vectors() -> Iterator[None]:
    # The in-process LRU of query vectors outlives a test; a test that swaps the embedding provider
    # must not be answered with another test's vectors.
    from memory.recall.semantic import recent_vectors, reset_provider_breakers

    recent_vectors.clear()
    reset_provider_breakers()  # likewise a provider another test made fail
    yield
    recent_vectors.clear()
    reset_provider_breakers()


@pytest.fixture(autouse=True)
def _redis_breaker_closed() -> Iterator[None]:
    # A test that breaks Redis (or the broker) opens the process-wide breaker; the next test must
    # find Redis tried again, not skipped.
    from knownbase import breaker

    breaker.redis.reset()
    yield
    breaker.redis.reset()


class StoppedClock:
    """accounts.recent's clock, stopped: a resolved credential stays warm until a test advances it,
    so a revocation shows only through the signals that forget it (in this process) or by `advance`
    past RECENT_SECONDS (as another process would see it)."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(autouse=True)
def recent_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[StoppedClock]:
    from accounts import recent

    clock = StoppedClock()
    monkeypatch.setattr(recent, "clock", clock)
    recent.principals.clear()
    yield clock
    recent.principals.clear()
