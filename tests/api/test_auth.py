"""Credentials of the REST API: Bearer API key, Bearer OAuth access token, the web session with
CSRF; no credential or a malformed, unknown, revoked, expired or orphaned one is 401 with
WWW-Authenticate; the plan's rate per credential is 429."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.test import Client

from accounts.actions import revoke_api_key
from accounts.models import ApiKey, AuditEvent, Membership
from accounts.principal import SESSION_TEAM_KEY
from edge import rate
from memory.models import Note
from tests.accounts.oauth_tokens import dcr_application, issue
from tests.api.conftest import Api


def test_no_credential_is_401_with_a_bearer_challenge(api):
    answer = api.as_(None).get("/projects")
    assert answer.status == 401 and answer.error["code"] == "unauthenticated"
    challenge = answer.headers["WWW-Authenticate"]
    assert challenge.startswith('Bearer realm="knownbase", resource_metadata="') and "error=" not in challenge


@pytest.mark.parametrize(
    "header",
    [
        "Bearer kb_nonsense",
        "Bearer ",
        "Bearer a b",
        "Basic dXNlcjpwYXNz",
        "Bearer " + "k" * 5000,  # longer than any credential
    ],
)
def test_a_malformed_or_unknown_credential_is_401(api, header):
    answer = Api(api.client, None).call("GET", "/projects", headers={"Authorization": header})
    assert answer.status == 401
    assert answer.headers["WWW-Authenticate"].startswith('Bearer realm="knownbase"')


def test_a_key_acts_as_its_holder_in_its_team(api, cast):
    assert [p["slug"] for p in api.get("/projects").json["projects"]] == ["payments", "website"]
    created = api.post("/projects/payments/notes", {"title": "t", "body": "b"})
    assert created.status == 201
    note = Note.objects.get(public_id=created.json["note"]["id"])
    assert (note.author_id, note.project_id, note.source) == (cast.member.pk, cast.payments.pk, "rest-api")
    event = AuditEvent.objects.filter(action="note.created").latest("pk")
    assert (event.actor_id, event.team_id, event.auth_method) == (cast.member.pk, cast.acme.pk, "api_key")


def test_another_teams_key_acts_in_its_own_team_only(api, cast):
    outsider = api.as_(cast.key(cast.outsider))
    assert [p["slug"] for p in outsider.get("/projects").json["projects"]] == ["lab"]
    assert outsider.get("/projects/payments/notes").status == 404


def test_a_revoked_key_is_401(api, cast):
    raw = cast.key(cast.member)
    assert api.as_(raw).get("/projects").status == 200
    key = ApiKey.authenticate(raw)
    assert key is not None
    revoke_api_key(key)
    assert api.as_(raw).get("/projects").status == 401


def test_an_oauth_token_acts_as_its_connection(api, cast):
    token, connection = issue(cast.member, cast.acme, application=dcr_application("Cursor"))
    assert api.as_(token).get("/projects").status == 200
    created = api.as_(token).post("/projects/payments/notes", {"title": "t", "body": "b"})
    assert created.status == 201
    assert Note.objects.get(public_id=created.json["note"]["id"]).source == connection.client_name == "Cursor"


def test_a_read_only_or_foreign_oauth_token_is_held_to_it(api, cast):
    reader, _ = issue(cast.member, cast.acme, read_only=True)
    assert api.as_(reader).post("/projects/payments/notes", {"title": "t", "body": "b"}).status == 403
    elsewhere, _ = issue(cast.member, cast.acme, resource="https://other.example/mcp")
    assert api.as_(elsewhere).get("/projects").status == 401
    assert not Note.objects.exists()


def test_the_key_of_someone_who_left_the_team_is_401(api, cast):
    Membership.objects.filter(team=cast.acme, user=cast.member).delete()
    assert api.get("/projects").status == 401


def test_an_oauth_token_acts_as_its_connection_under_the_clients_name(api, cast):
    raw, _ = issue(cast.member, cast.acme, project_id=cast.payments.pk)
    oauth = api.as_(raw)
    assert [p["slug"] for p in oauth.get("/projects").json["projects"]] == ["payments"]
    created = oauth.post("/projects/payments/notes", {"title": "t", "body": "b"})
    assert created.status == 201
    assert Note.objects.get(public_id=created.json["note"]["id"]).source == "Claude Code"
    assert oauth.post("/projects/website/notes", {"title": "t", "body": "b"}).status == 404


def test_a_read_scope_oauth_token_cannot_write(api, cast):
    oauth = api.as_(issue(cast.member, cast.acme, scope="read")[0])
    assert oauth.get("/projects").status == 200
    refused = oauth.post("/projects/payments/notes", {"title": "t", "body": "b"})
    assert refused.status == 403 and not Note.objects.exists()


@pytest.mark.parametrize(
    "options", [{"expires_in": -1}, {"resource": "https://elsewhere.test/mcp"}], ids=["expired", "foreign"]
)
def test_an_expired_or_foreign_oauth_token_is_401(api, cast, options):
    raw, _ = issue(cast.member, cast.acme, **options)
    assert api.as_(raw).get("/projects").status == 401


@pytest.fixture
def signed_in(cast):
    client = Client(enforce_csrf_checks=True)
    client.force_login(cast.member)
    session = client.session
    session[SESSION_TEAM_KEY] = cast.acme.pk
    session.save()
    return client


def test_the_web_session_reads_and_writes_with_its_csrf_token(signed_in, cast):
    assert signed_in.get("/api/v1/projects").status_code == 200
    refused = signed_in.post(
        "/api/v1/projects/payments/notes", {"title": "t", "body": "b"}, content_type="application/json"
    )
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    assert "CSRF" in refused.json()["error"]["message"] and not Note.objects.exists()
    signed_in.get("/admin/login/")  # any page that sets the CSRF cookie
    token = signed_in.cookies["csrftoken"].value
    created = signed_in.post(
        "/api/v1/projects/payments/notes",
        {"title": "t", "body": "b"},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert created.status_code == 201, created.content
    assert Note.objects.get().last_edited_client == "web"


def test_a_session_without_a_team_or_in_another_team_is_401(signed_in, cast):
    session = signed_in.session
    session[SESSION_TEAM_KEY] = cast.globex.pk
    session.save()
    assert signed_in.get("/api/v1/projects").status_code == 401
    del session[SESSION_TEAM_KEY]
    session.save()
    assert signed_in.get("/api/v1/projects").status_code == 401


def test_the_plans_rate_per_credential_is_429_with_retry_after(api, cast, monkeypatch):
    monkeypatch.setattr(rate, "time", SimpleNamespace(time=lambda: 6_000_000.0))  # mid-window
    cast.plan.requests_per_minute = 2
    cast.plan.save()
    assert [api.get("/usage").status for _ in range(2)] == [200, 200]
    limited = api.get("/usage")
    assert limited.status == 429 and limited.error["code"] == "rate_limited"
    assert int(limited.headers["Retry-After"]) >= 1 and limited.error["retry_after"] >= 1
    assert api.as_(cast.key(cast.member)).get("/usage").status == 200  # another credential, its own count
