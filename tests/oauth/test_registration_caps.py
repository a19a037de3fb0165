"""Anonymous client registration carries bounded metadata: at most OAUTH_REDIRECT_URIS redirect URIs
of at most OAUTH_REDIRECT_URI characters each, in a body of at most OAUTH_REGISTRATION_BYTES, nested
no deeper than JSON_MAX_DEPTH. Each refusal states the limit and registers nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.cache import cache
from oauth2_provider.models import Application

from memory import inputs

CALLBACK = "http://127.0.0.1:33418/callback"


@pytest.fixture(autouse=True)
def fresh_counters():
    cache.clear()
    yield
    cache.clear()


def register(client, body: Any = None, *, raw: str | None = None, **extra: Any):
    metadata = {
        "client_name": "Test agent",
        "redirect_uris": [CALLBACK],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
        **(body or {}),
    }
    data = raw if raw is not None else json.dumps(metadata)
    return client.post("/oauth/register/", data, content_type="application/json", **extra)


def test_a_registration_within_the_caps_is_made(client, db):
    uris = [f"http://127.0.0.1:{3000 + n}/callback" for n in range(inputs.OAUTH_REDIRECT_URIS.max_items)]
    response = register(client, {"redirect_uris": uris})
    assert response.status_code == 201, response.content
    assert Application.objects.count() == 1


def test_50_000_redirect_uris_are_refused_by_size_unread(client, db):
    uris = [f"http://127.0.0.1:{n % 60000 + 1}/cb" for n in range(50_000)]
    response = register(client, {"redirect_uris": uris})
    assert response.status_code == 413
    body = response.json()
    assert body["error"] == "invalid_client_metadata"
    assert str(inputs.OAUTH_REGISTRATION_BYTES.max_length) in body["error_description"]
    assert not Application.objects.exists()


def test_one_redirect_uri_too_many_is_refused(client, db):
    most = inputs.OAUTH_REDIRECT_URIS.max_items
    uris = [f"http://127.0.0.1:{3000 + n}/callback" for n in range(most + 1)]
    response = register(client, {"redirect_uris": uris})
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_redirect_uri"
    assert f"At most {most} redirect URIs" in response.json()["error_description"]
    assert not Application.objects.exists()


def test_an_overlong_redirect_uri_is_refused(client, db):
    longest = inputs.OAUTH_REDIRECT_URI.max_length
    uri = "http://127.0.0.1:3000/" + "a" * longest
    response = register(client, {"redirect_uris": [uri]})
    assert response.status_code == 400
    assert f"at most {longest} characters" in response.json()["error_description"]
    assert not Application.objects.exists()


def test_metadata_nested_1000_deep_is_refused_not_a_500(client, db):
    deep = "[" * 1000 + "]" * 1000
    response = register(client, raw='{"client_name": "x", "redirect_uris": ' + deep + "}")
    assert response.status_code == 400
    assert "deeper than 64 levels" in response.json()["error_description"]
    assert not Application.objects.exists()


def test_the_update_of_a_registration_has_the_same_caps(client, db):
    made = register(client).json()
    uris = [f"http://127.0.0.1:{3000 + n}/callback" for n in range(inputs.OAUTH_REDIRECT_URIS.max_items + 1)]
    response = client.put(
        f"/oauth/register/{made['client_id']}/",
        json.dumps({**made, "redirect_uris": uris}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {made['registration_access_token']}",
    )
    assert response.status_code == 400 and response.json()["error"] == "invalid_redirect_uri"
