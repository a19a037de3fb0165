"""/admin/login/ stands behind the login door: its failures count toward the same per-account and
per-address limits as /login/, and past them even the right password is refused."""

from __future__ import annotations

import pytest

PASSWORD = "correct horse battery"


@pytest.fixture
def staff(cast):
    cast.owner.is_staff = True
    cast.owner.is_superuser = True
    cast.owner.save()
    return cast.owner


def _admin_login(client, email="olivia@acme.test", password=PASSWORD, **extra):
    return client.post("/admin/login/", {"username": email, "password": password}, **extra)


def test_the_admin_login_page_still_signs_staff_in(client, staff):
    assert client.get("/admin/login/").status_code == 200
    response = _admin_login(client)
    assert response.status_code == 302
    assert client.get("/admin/").status_code == 200


def test_wrong_passwords_then_the_right_one_is_refused(client, staff, settings):
    settings.LOGIN_FAILURES_PER_ACCOUNT = 5
    failures = [_admin_login(client, password=f"guess {n}").status_code for n in range(5)]
    assert failures == [200] * 5  # the form again, with its error
    refused = _admin_login(client)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many failed sign-ins" in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_admin_failures_count_toward_the_login_page(client, staff, settings):
    settings.LOGIN_FAILURES_PER_ACCOUNT = 3
    for n in range(3):
        _admin_login(client, password=f"guess {n}")
    assert client.post("/login/", {"username": "olivia@acme.test", "password": PASSWORD}).status_code == 429


def test_login_page_failures_count_toward_the_admin(client, staff, settings):
    settings.LOGIN_FAILURES_PER_ADDRESS = 3
    for n in range(3):
        client.post("/login/", {"username": f"ghost{n}@nowhere.test", "password": "whatever"})
    assert _admin_login(client).status_code == 429
    assert _admin_login(client, REMOTE_ADDR="10.9.8.7").status_code == 302


def test_a_successful_admin_login_forgives_the_account(client, staff, settings):
    settings.LOGIN_FAILURES_PER_ACCOUNT = 3
    _admin_login(client, password="guess")
    _admin_login(client, password="guess")
    assert _admin_login(client).status_code == 302
    client.logout()
    _admin_login(client, password="guess")
    _admin_login(client, password="guess")
    assert _admin_login(client).status_code == 302


def test_the_right_password_of_a_non_staff_account_is_a_failure(client, cast, settings):
    settings.LOGIN_FAILURES_PER_ACCOUNT = 2
    assert [_admin_login(client, "mia@acme.test").status_code for _ in range(2)] == [200, 200]
    assert _admin_login(client, "mia@acme.test").status_code == 429
