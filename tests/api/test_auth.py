"""Credentials of the REST API: Bearer API key, Bearer OAuth token, the web session with
CSRF; no credential is 401 with WWW-Authenticate; the plan's rate per credential is 429."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.test import Client

from accounts.principal import SESSION_TEAM_KEY
from edge import rate
from memory.models import Note
from tests.accounts.oauth_tokens import dcr_application, issue
from tests.api.conftest import Api


def test_no_credential_is_401_with_a_bearer_challenge(api):
    answer = api.as_(None).get("/projects")
    assert answer.status == 401 and answer.error["code"] == "unauthenticated"
    assert answer.headers["WWW-Authenticate"] == 'Bearer realm="knownbase"'


@pytest.mark.parametrize("header", ["Bearer kb_nonsense", "Bearer ", "Bearer a b", "Basic dXNlcjpwYXNz"])
def test_a_bad_credential_is_401(api, header):
    answer = Api(api.client, None).call("GET", "/projects", headers={"Authorization": header})
    assert answer.status == 401
    assert answer.headers["WWW-Authenticate"].startswith('Bearer realm="knownbase"')


def test_a_revoked_key_is_401(api, cast):
    from accounts.actions import revoke_api_key
    from accounts.models import ApiKey

    raw = cast.key(cast.member)
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


@pytest.fixture
def browser(cast):
    client = Client(enforce_csrf_checks=True)
    client.force_login(cast.member)
    session = client.session
    session[SESSION_TEAM_KEY] = cast.acme.pk
    session.save()
    return client


def test_the_web_session_reads_and_writes_with_its_csrf_token(browser, cast):
    assert browser.get("/api/v1/projects").status_code == 200
    refused = browser.post(
        "/api/v1/projects/payments/notes", {"title": "t", "body": "b"}, content_type="application/json"
    )
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    assert "CSRF" in refused.json()["error"]["message"] and not Note.objects.exists()
    browser.get("/admin/login/")  # any page that sets the CSRF cookie
    token = browser.cookies["csrftoken"].value
    created = browser.post(
        "/api/v1/projects/payments/notes",
        {"title": "t", "body": "b"},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert created.status_code == 201, created.content
    assert Note.objects.get().last_edited_client == "web"


def test_a_session_without_a_team_or_in_another_team_is_401(browser, cast):
    session = browser.session
    session[SESSION_TEAM_KEY] = cast.globex.pk
    session.save()
    assert browser.get("/api/v1/projects").status_code == 401
    del session[SESSION_TEAM_KEY]
    session.save()
    assert browser.get("/api/v1/projects").status_code == 401


def test_the_plans_rate_per_credential_is_429_with_retry_after(api, cast, monkeypatch):
    monkeypatch.setattr(rate, "time", SimpleNamespace(time=lambda: 6_000_000.0))  # mid-window
    cast.plan.requests_per_minute = 2
    cast.plan.save()
    assert [api.get("/usage").status for _ in range(2)] == [200, 200]
    limited = api.get("/usage")
    assert limited.status == 429 and limited.error["code"] == "rate_limited"
    assert int(limited.headers["Retry-After"]) >= 1 and limited.error["retry_after"] >= 1
    assert api.as_(cast.key(cast.member)).get("/usage").status == 200  # another credential, its own count
