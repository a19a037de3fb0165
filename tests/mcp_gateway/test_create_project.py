from __future__ import annotations

import pytest

from accounts.models import AuditEvent
from memory.models import Project


def test_member_creates_project_with_derived_slug(mcp, cast):
    result = mcp.ok(
        cast.key(cast.member), "create_project", {"name": "Mobile App", "summary": "iOS and Android"}
    )
    assert result["project"] == {
        "slug": "mobile-app",
        "name": "Mobile App",
        "summary": "iOS and Android",
        "notes": 0,
    }
    project = Project.objects.get(team=cast.acme, slug="mobile-app")
    event = AuditEvent.objects.get(action="project.created", object_id=project.public_id)
    assert (event.actor_id, event.team_id, event.project_id) == (cast.member.pk, cast.acme.pk, project.pk)


def test_explicit_slug_and_instructions(local_mcp, cast):
    local_mcp.ok(
        cast.key(cast.owner),
        "create_project",
        {"name": "Infra", "slug": "infra-2", "agent_instructions": "Be terse."},
    )
    assert Project.objects.get(team=cast.acme, slug="infra-2").agent_instructions == "Be terse."


def test_slug_taken_in_the_team_is_invalid(local_mcp, cast):
    error = local_mcp.error(cast.key(cast.owner), "create_project", {"name": "Payments", "slug": "payments"})
    assert error["code"] == "invalid_argument"
    assert "payments" in error["message"]


def test_same_slug_in_another_team_is_fine(local_mcp, cast):
    local_mcp.ok(cast.key(cast.outsider), "create_project", {"name": "Payments"})
    assert Project.objects.filter(slug="payments").count() == 2


@pytest.mark.parametrize("who", ["viewer", "read_only_key"])
def test_read_only_callers_are_forbidden(local_mcp, cast, who):
    key = cast.key(cast.viewer) if who == "viewer" else cast.key(cast.member, read_only=True)
    error = local_mcp.error(key, "create_project", {"name": "Nope"})
    assert error["code"] == "forbidden"
    assert not Project.objects.filter(slug="nope").exists()


def test_project_scoped_key_cannot_create_projects(local_mcp, cast):
    error = local_mcp.error(cast.key(cast.owner, project=cast.payments), "create_project", {"name": "Side"})
    assert error["code"] == "forbidden"
    assert not Project.objects.filter(slug="side").exists()


@pytest.mark.parametrize(
    "arguments",
    [
        {},
        {"name": ""},
        {"name": 42},
        {"name": "x" * 121},
        {"name": "ok", "slug": "Not A Slug"},
        {"name": "ok", "x": 1},
    ],
)
def test_bad_input_is_invalid_argument(local_mcp, cast, arguments):
    before = Project.objects.count()
    error = local_mcp.error(cast.key(cast.owner), "create_project", arguments)
    assert error["code"] == "invalid_argument"
    assert Project.objects.count() == before
