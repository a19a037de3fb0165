from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from accounts.models import ApiKey, Membership, Team, User
from accounts.principal import principal_for_api_key
from billing.models import Plan
from billing.plans import ensure_catalogue
from memory.models import Project


def bootstrap(*args: str) -> dict:
    out = StringIO()
    call_command("bootstrap_team", *args, stdout=out)
    return json.loads(out.getvalue())


@pytest.fixture(autouse=True)
def plans(db):
    ensure_catalogue(Plan)


def test_creates_everything_missing_and_prints_a_working_key():
    result = bootstrap("--email", "Ada@Example.test", "--team", "analytical", "--project", "engine")
    assert (result["user"], result["team"], result["project"]) == ("ada@example.test", "analytical", "engine")
    principal = principal_for_api_key(result["api_key"])
    assert principal is not None and principal.can_write and principal.project_id is None
    team = Team.objects.get(slug="analytical")
    assert Membership.objects.get(team=team).role == "owner"
    assert Plan.of_team(team.pk).code == "free"


def test_second_run_reuses_and_issues_a_new_key():
    first = bootstrap("--email", "ada@example.test", "--team", "analytical", "--project", "engine")
    second = bootstrap("--email", "ada@example.test", "--team", "analytical", "--project", "engine")
    assert first["api_key"] != second["api_key"]
    assert (User.objects.count(), Team.objects.count(), Project.objects.count()) == (1, 1, 1)
    assert ApiKey.objects.count() == 2


def test_project_scoped_read_only_key_and_password():
    result = bootstrap(
        "--email", "ada@example.test", "--team", "t1", "--project", "p1",
        "--project-scoped", "--read-only", "--password", "a long enough password",
    )  # fmt: skip
    principal = principal_for_api_key(result["api_key"])
    assert principal is not None
    assert principal.project_id == Project.objects.get(slug="p1").pk and not principal.can_write
    assert User.objects.get(email="ada@example.test").check_password("a long enough password")


def test_refuses_a_user_outside_an_existing_team():
    bootstrap("--email", "ada@example.test", "--team", "t1", "--project", "p1")
    with pytest.raises(CommandError, match="not a member"):
        bootstrap("--email", "eve@example.test", "--team", "t1", "--project", "p1")
