"""/api/v1 projects: list, create, read, update, tag rename."""

from __future__ import annotations

from accounts.models import AuditEvent
from memory.models import Note, Project
from tests.mcp_gateway.state import db_state, save


def test_list_shows_the_teams_projects_with_visible_note_counts(api, cast):
    save(cast, "Port", "8080")
    save(cast, "Olivia's", "private", user=cast.owner, visibility="private")
    answer = api.get("/projects")
    assert answer.status == 200
    assert [(p["slug"], p["notes"]) for p in answer.json["projects"]] == [("payments", 1), ("website", 0)]
    scoped = api.as_(cast.key(cast.member, project=cast.website)).get("/projects")
    assert [p["slug"] for p in scoped.json["projects"]] == ["website"]


def test_create_answers_201_with_location(api):
    answer = api.post("/projects", {"name": "Mobile App", "summary": "iOS and Android."})
    assert answer.status == 201, answer
    assert answer.json["project"] == {
        "slug": "mobile-app",
        "name": "Mobile App",
        "summary": "iOS and Android.",
        "notes": 0,
    }
    assert answer.headers["Location"] == "/api/v1/projects/mobile-app"
    assert api.get("/projects/mobile-app").status == 200


def test_a_taken_slug_and_a_project_scoped_key_are_refused(api, cast):
    assert api.post("/projects", {"name": "Payments", "slug": "payments"}).status == 400
    scoped = api.as_(cast.key(cast.member, project=cast.website)).post("/projects", {"name": "Other"})
    assert scoped.status == 403 and scoped.error["code"] == "forbidden"
    assert Project.objects.filter(team=cast.acme).count() == 2


def test_read_has_the_texts_and_update_changes_only_what_is_given(api, cast):
    updated = api.patch(
        "/projects/payments", {"summary": "Card payments.", "agent_instructions": "Cents only."}
    )
    assert updated.status == 200
    project = api.get("/projects/payments").json["project"]
    assert (project["name"], project["summary"], project["agent_instructions"]) == (
        "Payments API",
        "Card payments.",
        "Cents only.",
    )
    renamed = api.patch("/projects/payments", {"name": "Billing", "slug": "billing"})
    assert (
        renamed.json["project"]["slug"] == "billing"
        and renamed.json["project"]["summary"] == "Card payments."
    )
    assert api.get("/projects/payments").status == 404
    assert AuditEvent.objects.filter(action="project.updated").count() == 2


def test_update_with_nothing_or_a_bad_slug_is_400(api, cast):
    before = db_state()
    assert api.patch("/projects/payments", {}).status == 400
    assert api.patch("/projects/payments", {"slug": "Not A Slug"}).status == 400
    assert api.patch("/projects/payments", {"summary": 12}).status == 400
    assert db_state() == before


def test_rename_a_tag_across_the_project(api, cast):
    save(cast, "One", "one", tags=["db"])
    save(cast, "Two", "two", tags=["db", "database"])
    answer = api.post("/projects/payments/tags/rename", {"old": "db", "new": "database"})
    assert answer.json == {"project": "payments", "old": "db", "new": "database", "notes_updated": 2}
    assert sorted(tuple(n.tags) for n in Note.objects.all()) == [("database",), ("database",)]


def test_viewer_reads_projects_but_cannot_change_them(api, cast):
    viewer = api.as_(cast.key(cast.viewer))
    assert viewer.get("/projects/payments").status == 200
    before = db_state()
    assert viewer.patch("/projects/payments", {"summary": "x"}).status == 403
    assert viewer.post("/projects", {"name": "New"}).status == 403
    assert viewer.post("/projects/payments/tags/rename", {"old": "a", "new": "b"}).status == 403
    assert db_state() == before
