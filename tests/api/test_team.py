"""/api/v1 usage and API keys (owners and admins manage them; everyone lists their own)."""

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


def test_members_and_project_scoped_owners_cannot_manage_keys_and_list_only_their_own(api, cast):
    scoped_owner = api.as_(cast.key(cast.owner, project=cast.payments))
    before = ApiKey.objects.count()
    owners = ApiKey.objects.filter(user=cast.owner).get()
    for caller, user in ((api, cast.member), (scoped_owner, cast.owner)):
        listed = caller.get("/api-keys")
        assert listed.status == 200
        assert {k["user"] for k in listed.json["api_keys"]} == {user.email}
        assert caller.post("/api-keys", {"name": "x"}).status == 403
        assert caller.delete(f"/api-keys/{owners.display_prefix}").status == 403
    assert ApiKey.objects.count() == before
    assert ApiKey.objects.filter(revoked_at__isnull=False).count() == 0


def test_bad_key_requests_are_400(owner_api):
    assert owner_api.post("/api-keys", {}).status == 400
    assert owner_api.post("/api-keys", {"name": "x", "expires_at": "2001-01-01T00:00:00Z"}).status == 400
    assert owner_api.post("/api-keys", {"name": "x", "read_only": "yes"}).status == 400
    assert owner_api.delete("/api-keys/kb_doesnotexist").status == 404
