"""One error shape with the right status for every failure, the store's and DRF's; never a 500 page or
a traceback for bad input."""

from __future__ import annotations

import pytest

from accounts.models import AuditEvent
from memory import store
from tests.mcp_gateway.state import db_state, save

SECRET = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"


def shape_ok(answer, status, code):
    assert answer.status == status, answer
    assert answer.headers["Content-Type"].startswith("application/json")
    assert set(answer.json) == {"error"} and answer.error["code"] == code
    assert isinstance(answer.error["message"], str) and answer.error["message"]
    assert "Traceback" not in answer.text


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"title": 5, "body": "b"}, "title"),
        ({"title": "t", "body": "b", "tags": ["ok", 7]}, "tags[1]"),
        ({"title": "t", "body": "b", "importance": "high"}, "importance"),
        ({"title": "t", "body": "b", "importance": True}, "importance"),
        ({"title": "t", "body": "b", "type": "memo"}, "type"),
        ({"title": "t" * 301, "body": "b"}, "title"),
        ({"body": "b"}, "title"),
    ],
)
def test_a_malformed_field_is_400_naming_it(api, body, field):
    answer = api.post("/projects/payments/notes", body)
    shape_ok(answer, 400, "invalid_argument")
    assert answer.error["message"].startswith(f"`{field}`"), answer.error
    assert field in answer.error["fields"]


@pytest.mark.parametrize("raw", ["{not json", "[1, 2]", '"text"', "null", "{" * 5000])
def test_a_body_that_is_not_a_json_object_is_400(api, raw):
    shape_ok(api.post("/projects/payments/notes", raw=raw), 400, "invalid_argument")


def test_a_huge_or_secret_value_is_never_echoed(api):
    huge = "x" * 200_000
    for answer in (
        api.post("/projects/payments/notes", {"title": "t", "body": "b", "type": huge}),
        api.post("/projects/payments/notes", {"title": "t", "body": "b", huge: 1}),
        api.get(f"/notes/{'n' * 5000}"),
    ):
        assert answer.status in (400, 404) and len(answer.text) < 2_000
    typo = api.post("/projects/payments/notes", {"title": "t", "body": "b", "type": SECRET})
    assert typo.status == 400 and SECRET not in typo.text


def test_method_media_type_and_accept(api):
    shape_ok(api.call("PUT", "/projects", {"name": "x"}), 405, "method_not_allowed")
    shape_ok(
        api.post("/projects", raw="name=x", content_type="application/x-www-form-urlencoded"),
        415,
        "unsupported_media_type",
    )
    shape_ok(api.call("GET", "/projects", headers={"Accept": "text/html"}), 406, "not_acceptable")
    shape_ok(api.get("/no/such/endpoint"), 404, "not_found")
    shape_ok(api.as_(None).call("DELETE", "/nothing-here"), 404, "not_found")


def test_screened_is_422_naming_field_and_family_without_the_secret(api):
    before = db_state()
    answer = api.post("/projects/payments/remember", {"content": f"The token is {SECRET}"})
    shape_ok(answer, 422, "screened")
    assert answer.error["field"] == "content" and answer.error["family"]
    assert SECRET not in answer.text
    assert db_state() == before
    assert AuditEvent.objects.filter(action="write.screened").count() == 1


def test_plan_limit_is_402_with_the_upgrade_url(api, cast):
    cast.plan.max_notes = 1
    cast.plan.save()
    save(cast, "First", "one")
    answer = api.post("/projects/payments/notes", {"title": "Second", "body": "two"})
    shape_ok(answer, 402, "plan_limit")
    assert answer.error["upgrade_url"].endswith("/billing/") and answer.error["cap"] == "notes"


def test_an_unexpected_failure_is_a_500_in_the_same_shape_without_a_traceback(api, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("database on fire at /srv/secret/path")

    monkeypatch.setattr(store, "list_projects", broken)
    answer = api.get("/projects")
    shape_ok(answer, 500, "internal")
    assert "fire" not in answer.text and "/srv" not in answer.text
