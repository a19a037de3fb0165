from __future__ import annotations

import pytest

from web.session import TEAM_SESSION_KEY

PASSWORD = "correct horse battery"


def _login(client, email="olivia@acme.test", password=PASSWORD, **extra):
    return client.post("/login/", {"username": email, "password": password, **extra})


def test_login_form_fields_are_username_password_and_csrf(client, db):
    html = client.get("/login/?next=/keys/").content.decode()
    assert 'name="username"' in html and 'type="email"' in html
    assert 'name="password"' in html and 'autocomplete="current-password"' in html
    assert "csrfmiddlewaretoken" in html
    assert 'name="next" value="/keys/"' in html


def test_login_signs_in_and_chooses_the_first_team(client, cast):
    response = _login(client, email="  OLIVIA@acme.test ")
    assert response.status_code == 302 and response["Location"] == "/"
    assert client.session[TEAM_SESSION_KEY] == cast.acme.pk
    assert "Acme" in client.get("/").content.decode()


def test_login_honours_a_local_next(client, cast):
    target = "/oauth/authorize/?client_id=abc&code_challenge=x&code_challenge_method=S256"
    response = client.post(
        f"/login/?next={target.replace('&', '%26').replace('?', '%3F')}",
        {"username": "olivia@acme.test", "password": PASSWORD},
    )
    assert response["Location"] == target
    response = _login(client, next="/keys/")
    assert response["Location"] == "/keys/"


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "javascript:alert(1)"])
def test_login_ignores_a_foreign_next(client, cast, target):
    assert _login(client, next=target)["Location"] == "/"


def test_wrong_password_is_a_form_error(client, cast):
    response = _login(client, password="wrong password!")
    assert response.status_code == 400
    assert "correct email and password" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_failures_per_account_are_limited(client, cast, settings):
    settings.LOGIN_FAILURES_PER_ACCOUNT = 3
    for _ in range(3):
        assert _login(client, password="nope nope nope").status_code == 400
    blocked = _login(client)  # even the right password, until the window ends
    assert blocked.status_code == 429
    assert "Too many failed sign-ins" in blocked.content.decode()
    assert "_auth_user_id" not in client.session
    # Another account from the same address is not blocked by Olivia's counter.
    assert _login(client, email="mia@acme.test").status_code == 302


def test_failures_per_address_are_limited(client, cast, settings):
    settings.LOGIN_FAILURES_PER_ADDRESS = 4
    for n in range(4):
        _login(client, email=f"ghost{n}@nowhere.test", password="whatever it is")
    assert _login(client).status_code == 429
    # Another client address still gets in.
    other = client.post(
        "/login/", {"username": "olivia@acme.test", "password": PASSWORD}, REMOTE_ADDR="10.9.8.7"
    )
    assert other.status_code == 302


def test_a_successful_login_forgives_the_account(client, cast, settings):
    settings.LOGIN_FAILURES_PER_ACCOUNT = 3
    _login(client, password="nope nope nope")
    _login(client, password="nope nope nope")
    assert _login(client).status_code == 302
    client.logout()
    _login(client, password="nope nope nope")
    _login(client, password="nope nope nope")
    assert _login(client).status_code == 302


class _DownCache:
    def __getattr__(self, name):
        def fail(*args, **kwargs):
            raise ConnectionError("cache down")

        return fail


def test_login_throttle_survives_a_broken_cache(client, cast, monkeypatch):
    monkeypatch.setattr("edge.rate.cache", _DownCache())
    assert _login(client, password="nope nope nope").status_code == 400
    assert _login(client).status_code == 302


def test_logout_takes_a_post(client, cast):
    client.force_login(cast.owner)
    page = client.get("/logout/")
    assert page.status_code == 200 and 'method="post"' in page.content.decode()
    assert "_auth_user_id" in client.session
    response = client.post("/logout/")
    assert response["Location"] == "/"
    assert "_auth_user_id" not in client.session
    assert "Create a free account" in client.get("/").content.decode()


@pytest.mark.parametrize(
    "path",
    ["/keys/", "/teams/", "/teams/members/", "/teams/settings/", "/password/change/", "/verify-email/"],
)
def test_anonymous_is_sent_to_login(client, db, path):
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"] == f"/login/?next={path}"
