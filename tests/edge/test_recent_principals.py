"""Resolving a Bearer credential: no query when it was resolved in this process in the last
RECENT_SECONDS, one for a cold API key; and a revoked key, a removed membership, a plan change or a
deleted project applies at once in this process (signals) and within RECENT_SECONDS in any other
(simulated here by changing rows without signals, then advancing the stopped clock)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import pytest
from django.db import connection
from django.db.backends.utils import CursorWrapper
from django.utils import timezone

from accounts.limits import RECENT_SECONDS
from accounts.models import ApiKey, Membership, User
from billing import actions as billing_actions
from billing.models import Plan, Subscription
from edge.principals import api_key_principal, bearer_principal, oauth_principal
from mcp_gateway.auth import CredentialVerifier
from memory import store
from tests.accounts.oauth_tokens import issue


class Queries:
    """Every statement run while the block is open, on any thread's connection."""

    def __init__(self) -> None:
        self.sql: list[str] = []

    def __len__(self) -> int:
        return len(self.sql)


@contextmanager
def all_threads_queries(monkeypatch: pytest.MonkeyPatch) -> Iterator[Queries]:
    queries = Queries()
    lock = threading.Lock()
    original = CursorWrapper._execute_with_wrappers  # type: ignore[attr-defined]  # private, unstubbed

    def counting(self: CursorWrapper, sql: str, params: Any, many: bool, executor: Any) -> Any:
        with lock:
            queries.sql.append(sql)
        return original(self, sql, params, many, executor)

    with monkeypatch.context() as patch:
        patch.setattr(CursorWrapper, "_execute_with_wrappers", counting)
        yield queries


def test_a_warm_api_key_costs_no_query_and_a_cold_one_a_single_query(
    cast, django_assert_num_queries, recent_clock
):
    raw = cast.key(cast.member)
    with django_assert_num_queries(2):  # the first use also records last_used_at (once a minute)
        assert api_key_principal(raw, "rest-api") is not None
    recent_clock.advance(RECENT_SECONDS)
    with django_assert_num_queries(1):
        cold = api_key_principal(raw, "rest-api")
    with django_assert_num_queries(0):
        warm = api_key_principal(raw, "rest-api")
    assert cold == warm and cold is not None
    assert (cold.user_id, cold.team_id, cold.role, cold.requests_per_minute) == (
        cast.member.pk,
        cast.acme.pk,
        "member",
        cast.plan.requests_per_minute,
    )


def test_a_team_on_no_subscription_resolves_cold_in_one_query_at_the_default_plans_rate(
    cast, django_assert_num_queries
):
    Subscription.objects.filter(team=cast.acme).delete()
    raw = cast.key(cast.member)
    ApiKey.objects.filter(team=cast.acme).update(last_used_at=timezone.now())
    with django_assert_num_queries(1):
        principal = api_key_principal(raw)
    assert principal is not None
    assert principal.requests_per_minute == Plan.objects.get(is_default=True).requests_per_minute


def test_a_warm_oauth_token_costs_no_query(cast, django_assert_num_queries):
    token, _ = issue(cast.member, cast.acme)
    cold = oauth_principal(token)
    with django_assert_num_queries(0):
        assert oauth_principal(token) == cold is not None


def test_the_mcp_verifier_answers_a_warm_credential_with_no_query_on_any_thread(cast, monkeypatch):
    raw = cast.key(cast.member)
    resource = "http://testserver/mcp"
    assert bearer_principal(raw, resource=resource) is not None
    with all_threads_queries(monkeypatch) as queries:
        token = anyio.run(CredentialVerifier(resource).verify_token, raw)
    assert token is not None and token.client_id.startswith("api_key:kb_")
    assert queries.sql == []


def test_a_warm_in_process_mcp_call_runs_only_the_tools_own_queries(local_mcp, cast, monkeypatch):
    raw = cast.key(cast.member)
    principal = api_key_principal(raw)
    assert principal is not None
    with all_threads_queries(monkeypatch) as own:
        store.list_projects(principal)
    with all_threads_queries(monkeypatch) as call:
        assert [p["slug"] for p in local_mcp.ok(raw, "list_projects")["projects"]] == ["payments", "website"]
    assert len(own) == len(call) == 1, call.sql


# Revocation, membership, plan and project changes.


def test_a_removed_membership_refuses_the_key_at_once_and_elsewhere_within_a_second(cast, recent_clock):
    here, elsewhere = cast.key(cast.member), cast.key(cast.viewer)
    assert api_key_principal(here) is not None and api_key_principal(elsewhere) is not None
    Membership.objects.get(team=cast.acme, user=cast.member).delete()
    assert api_key_principal(here) is None
    assert api_key_principal(elsewhere) is not None  # warm again after the team's entries were forgotten
    with connection.cursor() as cursor:  # as another process would: no signal reaches this one
        cursor.execute("DELETE FROM accounts_membership WHERE user_id = %s", [cast.viewer.pk])
    assert api_key_principal(elsewhere) is not None
    recent_clock.advance(RECENT_SECONDS)
    assert api_key_principal(elsewhere) is None


def test_a_deactivated_user_is_refused_at_once(cast):
    raw = cast.key(cast.member)
    assert api_key_principal(raw) is not None
    User.objects.filter(pk=cast.member.pk).update(is_active=False)
    cast.member.refresh_from_db()
    cast.member.save(update_fields=["is_active"])
    assert api_key_principal(raw) is None


def test_a_plan_change_applies_at_once_and_elsewhere_within_a_second(cast, recent_clock):
    raw = cast.key(cast.member)
    before = api_key_principal(raw)
    assert before is not None and before.requests_per_minute == cast.plan.requests_per_minute
    pro, team = Plan.objects.get(code="pro"), Plan.objects.get(code="team")
    billing_actions.change_plan(cast.acme, pro)
    now = api_key_principal(raw)
    assert now is not None and now.requests_per_minute == pro.requests_per_minute
    Subscription.objects.filter(team=cast.acme).update(plan=team)  # no signal
    assert api_key_principal(raw) == now
    recent_clock.advance(RECENT_SECONDS)
    later = api_key_principal(raw)
    assert later is not None and later.requests_per_minute == team.requests_per_minute


def test_editing_a_plans_rate_applies_to_every_team_on_it_at_once(cast):
    member, outsider = cast.key(cast.member), cast.key(cast.outsider)
    assert api_key_principal(member) is not None and api_key_principal(outsider) is not None
    cast.plan.requests_per_minute = 7
    cast.plan.save()
    assert [api_key_principal(raw).requests_per_minute for raw in (member, outsider)] == [7, 7]  # type: ignore[union-attr]
