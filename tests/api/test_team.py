"""/api/v1 usage and API keys (owners and admins)."""

from __future__ import annotations

from accounts.models import ApiKey


def test_usage_is_the_callers_team(api, cast):
    answer = api.get("/usage")
    assert answer.status == 200
    assert answer.json["plan"]["code"] == "developer" and answer.json["usage"]["projects"] == 2
    assert answer.json["upgrade_url"].endswith("/billing/")


def test_owner_creates_lists_and_revokes_keys(owner_api, cast):
    created = owner_api.post("/api-keys", {"name": "CI", "project": "website", "read_only": True})
    assert created.status == 201, created
    key, raw = created.json["api_key"], created.json["key"]
    assert (key["project"], key["read_only"]) == ("website", True)
    fresh = owner_api.as_(raw)
    assert [p["slug"] for p in fresh.get("/projects").json["projects"]] == ["website"]
    assert fresh.post("/projects/website/notes", {"title": "t", "body": "b"}).status == 403
    listed = owner_api.get("/api-keys").json["api_keys"]
    assert key["id"] in {k["id"] for k in listed} and raw not in repr(listed)
    revoked = owner_api.delete(f"/api-keys/{key['id']}")
    assert revoked.status == 200 and revoked.json["api_key"]["revoked_at"] is not None
    assert fresh.get("/projects").status == 401


def test_members_and_project_scoped_owners_cannot_manage_keys(api, cast):
    before = ApiKey.objects.count()
    scoped_owner = api.as_(cast.key(cast.owner, project=cast.payments))
    for caller in (api, scoped_owner):
        assert caller.get("/api-keys").status == 403
        assert caller.post("/api-keys", {"name": "x"}).status == 403
    assert ApiKey.objects.count() == before + 1  # only the scoped owner's own test key


def test_bad_key_requests_are_400(owner_api):
    assert owner_api.post("/api-keys", {}).status == 400
    assert owner_api.post("/api-keys", {"name": "x", "expires_at": "2001-01-01T00:00:00Z"}).status == 400
    assert owner_api.post("/api-keys", {"name": "x", "read_only": "yes"}).status == 400
    assert owner_api.delete("/api-keys/kb_doesnotexist").status == 404
