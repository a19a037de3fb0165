"""A database outage met anywhere in a request is one answer: 503 with Retry-After, in the API's
error shape, OAuth's, or the site's page; never a traceback, never a 500."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.db import InterfaceError, OperationalError
from django.test import Client, RequestFactory
from django.urls import get_resolver
from psycopg_pool import PoolTimeout

from accounts.errors import Unavailable
from edge import outage
from edge.errors import UNAVAILABLE_RETRY_AFTER
from memory import store
from tests.web.conftest import sign_in

RETRY_AFTER = str(UNAVAILABLE_RETRY_AFTER)


def _down(*args: Any, **kwargs: Any) -> Any:
    raise OperationalError("connection to server at 127.0.0.1 failed: Connection refused")


@pytest.mark.parametrize(
    "exc", [OperationalError("gone"), InterfaceError("connection already closed"), PoolTimeout("2 s")]
)
def test_an_outage_becomes_the_stores_unavailable_error(exc):
    error = outage.unavailable(exc)
    assert isinstance(error, Unavailable)
    assert error.code == "unavailable"
    assert error.details == {"retry_after": UNAVAILABLE_RETRY_AFTER}
    assert "gone" not in error.message  # the server's own words stay in the log


@pytest.mark.parametrize("exc", [ValueError("bug"), KeyError("x"), None])
def test_other_errors_are_no_outage(exc):
    assert outage.unavailable(exc) is None


def test_a_page_meeting_an_outage_is_the_503_page(cast, monkeypatch):
    client = sign_in(Client(raise_request_exception=False), cast.owner)
    monkeypatch.setattr(SessionStore, "load", _down)  # the session is read from the database
    page = client.get("/")
    assert page.status_code == 503
    assert page["Retry-After"] == RETRY_AFTER
    text = page.content.decode()
    assert "Temporarily unavailable" in text
    assert "Traceback" not in text and "OperationalError" not in text


def test_a_json_client_of_a_page_gets_the_error_shape(cast, monkeypatch):
    client = sign_in(Client(raise_request_exception=False), cast.owner)
    monkeypatch.setattr(SessionStore, "load", _down)
    answer = client.get("/", headers={"Accept": "application/json"})
    assert answer.status_code == 503
    assert answer.json()["error"]["code"] == "unavailable"


def test_the_rest_api_answers_503_in_its_error_shape(cast, monkeypatch):
    key = cast.key(cast.member)
    monkeypatch.setattr(store, "list_projects", _down)
    answer = Client().get("/api/v1/projects", headers={"Authorization": f"Bearer {key}"})
    assert answer.status_code == 503
    assert answer["Retry-After"] == RETRY_AFTER
    assert answer.json() == {
        "error": {
            "code": "unavailable",
            "message": outage.DATABASE_MESSAGE,
            "retry_after": UNAVAILABLE_RETRY_AFTER,
        }
    }


def test_the_oauth_token_endpoint_answers_in_oauths_shape(db, monkeypatch):
    from web.oauth.validator import KnownbaseValidator

    monkeypatch.setattr(KnownbaseValidator, "client_authentication_required", _down)
    answer = Client(raise_request_exception=False).post(
        "/oauth/token/", {"grant_type": "authorization_code", "code": "x", "client_id": "y"}
    )
    assert answer.status_code == 503
    assert answer["Retry-After"] == RETRY_AFTER
    assert answer.json()["error"] == "temporarily_unavailable"


def test_handler500_answers_an_outage_outside_a_view_with_503():
    assert get_resolver().resolve_error_handler(500) is outage.server_error
    request = RequestFactory().get("/")
    try:
        _down()
    except OperationalError:
        response = outage.server_error(request)
    assert response.status_code == 503
    assert response["Retry-After"] == RETRY_AFTER


def test_handler500_answers_any_other_error_with_the_plain_500_page():
    request = RequestFactory().get("/")
    try:
        raise ValueError("a bug with a secret in it")
    except ValueError:
        response = outage.server_error(request)
    assert response.status_code == 500
    text = response.content.decode()
    assert "Server Error (500)" in text
    assert "secret" not in text and "Traceback" not in text


def test_an_outage_in_a_middleware_is_a_503_too(cast, monkeypatch):
    # The session is saved by its middleware after the view: an outage there skips the view's
    # exception handling and reaches handler500.
    client = sign_in(Client(raise_request_exception=False), cast.owner)
    monkeypatch.setattr(SessionStore, "save", _down)
    answer = client.post("/teams/switch/", {"team": "acme"})  # the chosen team is kept in the session
    assert answer.status_code == 503
    assert answer["Retry-After"] == RETRY_AFTER
