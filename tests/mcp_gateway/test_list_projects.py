from __future__ import annotations

import json

from memory.models import Note


def test_lists_team_projects_with_note_counts(mcp, cast):
    Note.objects.create(team=cast.acme, project=cast.payments, title="a", body="b", content_hash="x")
    result = mcp.call(cast.key(cast.member), "list_projects")
    assert not result.is_error
    projects = result.structured_content["projects"]
    assert [(p["slug"], p["notes"]) for p in projects] == [("payments", 1), ("website", 0)]
    # The same object travels as JSON text for clients that read only text content.
    assert json.loads(result.content[0].text) == result.structured_content


def test_outsider_sees_only_their_own_team(local_mcp, cast):
    projects = local_mcp.ok(cast.key(cast.outsider), "list_projects")["projects"]
    assert [p["slug"] for p in projects] == ["lab"]


def test_project_scoped_key_sees_its_project_only(local_mcp, cast):
    projects = local_mcp.ok(cast.key(cast.owner, project=cast.website), "list_projects")["projects"]
    assert [p["slug"] for p in projects] == ["website"]


def test_read_only_key_may_list(local_mcp, cast):
    projects = local_mcp.ok(cast.key(cast.viewer, read_only=True), "list_projects")["projects"]
    assert len(projects) == 2


def test_private_notes_of_others_are_not_counted(local_mcp, cast):
    Note.objects.create(
        team=cast.acme,
        project=cast.payments,
        author=cast.owner,
        title="mine",
        content_hash="x",
        visibility="private",
    )
    mine = local_mcp.ok(cast.key(cast.owner), "list_projects")["projects"][0]
    theirs = local_mcp.ok(cast.key(cast.member), "list_projects")["projects"][0]
    assert (mine["notes"], theirs["notes"]) == (1, 0)


def test_unknown_argument_is_invalid(local_mcp, cast):
    error = local_mcp.error(cast.key(cast.member), "list_projects", {"team": "globex"})
    assert error["code"] == "invalid_argument"
