"""DEBUG is on in development, but only the machine itself sees Django's debug pages: any other client
(or one coming through a proxy) gets the plain page, with no traceback, settings or URL patterns."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

DATABASE_PASSWORD = "Xk9v/Q2m@Pz7LwR4tB"
REDIS_PASSWORD = "Rt5Lw2Qz8Kp3Mn7V"
REMOTE = "203.0.113.7"
SECRETS = (DATABASE_PASSWORD, REDIS_PASSWORD, "Xk9v", "Pz7LwR4tB")  # and the parts either side of its "@"
DEBUG_DETAILS = (
    "Traceback",
    "DATABASE",
    "REDIS_URL",
    "CELERY_BROKER_URL",
    "db.internal",
    "SECRET_KEY",
    "DEBUG = True",
)


@pytest.fixture
def debug(settings):
    settings.DEBUG = True
    settings.DATABASE_URL = f"postgresql://kb:{DATABASE_PASSWORD}@db.internal:5432/knownbase"
    settings.REDIS_URL = f"redis://:{REDIS_PASSWORD}@cache.internal:6379/0"
    settings.CELERY_BROKER_URL = settings.REDIS_URL
    return settings


def get(path: str, *, remote_addr: str, accept: str = "text/html", **headers: Any):
    return Client(raise_request_exception=False).get(
        path, REMOTE_ADDR=remote_addr, HTTP_ACCEPT=accept, **headers
    )


def plain(text: str) -> bool:
    return not any(detail in text for detail in (*DEBUG_DETAILS, *SECRETS))


@pytest.mark.parametrize("accept", ["text/html", "text/plain"])
@pytest.mark.parametrize(
    ("remote_addr", "headers"),
    [
        (REMOTE, {}),
        ("10.0.0.8", {}),
        ("2001:db8::1", {}),
        # A proxy on the same machine forwards someone else's request.
        ("127.0.0.1", {"HTTP_X_FORWARDED_FOR": REMOTE}),
        ("127.0.0.1", {"HTTP_FORWARDED": f"for={REMOTE}"}),
        ("127.0.0.1", {"HTTP_X_REAL_IP": REMOTE}),
        # Every other name proxies and CDNs use for the client they forward, even an empty one.
        ("127.0.0.1", {"HTTP_X_CLIENT_IP": REMOTE}),
        ("127.0.0.1", {"HTTP_TRUE_CLIENT_IP": REMOTE}),
        ("127.0.0.1", {"HTTP_CF_CONNECTING_IP": REMOTE}),
        ("127.0.0.1", {"HTTP_FASTLY_CLIENT_IP": REMOTE}),
        ("127.0.0.1", {"HTTP_X_CLUSTER_CLIENT_IP": REMOTE}),
        ("127.0.0.1", {"HTTP_X_FORWARDED_HOST": "evil.example"}),
        ("127.0.0.1", {"HTTP_X_FORWARDED_PROTO": "https"}),
        ("127.0.0.1", {"HTTP_VIA": "1.1 proxy"}),
        ("127.0.0.1", {"HTTP_X_FORWARDED_FOR": ""}),
        ("", {}),
        ("not an address", {}),
    ],
)
def test_a_bad_host_from_elsewhere_gets_the_plain_400(debug, remote_addr, headers, accept):
    response = get("/healthz", remote_addr=remote_addr, accept=accept, HTTP_HOST="evil.example", **headers)
    assert response.status_code == 400
    text = response.content.decode()
    assert "Bad Request (400)" in text
    assert plain(text) and "DisallowedHost" not in text and "evil.example" not in text


@pytest.mark.parametrize("remote_addr", ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"])
def test_the_machine_itself_keeps_the_debug_page_with_url_passwords_masked(debug, remote_addr):
    response = get("/healthz", remote_addr=remote_addr, HTTP_HOST="evil.example")
    assert response.status_code == 400
    text = response.content.decode()
    assert "DisallowedHost" in text and "evil.example" in text
    # The settings are listed, with the passwords in their URLs masked.
    assert "DATABASE_URL" in text and "db.internal" in text and "CELERY_BROKER_URL" in text
    assert not any(secret in text for secret in SECRETS)


@pytest.mark.urls("tests.knownbase.debug_urls")
@pytest.mark.parametrize("accept", ["text/html", "text/plain"])
def test_a_failing_view_gives_elsewhere_the_plain_500_and_here_the_traceback(debug, accept):
    remote = get("/explode", remote_addr=REMOTE, accept=accept)
    assert remote.status_code == 500
    assert "Server Error (500)" in remote.content.decode()
    assert plain(remote.content.decode()) and "kaboom" not in remote.content.decode()

    local = get("/explode", remote_addr="127.0.0.1", accept=accept)
    assert local.status_code == 500
    assert "kaboom in a view" in local.content.decode() and "RuntimeError" in local.content.decode()
    assert not any(secret in local.content.decode() for secret in SECRETS)


@pytest.mark.parametrize("path", ["/no-such-page", "/exports/forged-token"])
def test_a_missing_page_lists_no_url_patterns_elsewhere(debug, path):
    remote = get(path, remote_addr=REMOTE)
    assert remote.status_code == 404
    text = remote.content.decode()
    assert plain(text) and "healthz" not in text and "exports/" not in text

    local = get(path, remote_addr="127.0.0.1")
    assert local.status_code == 404
    assert "DEBUG = True" in local.content.decode()
    # Elsewhere it is exactly the site's own 404 page, as production shows it.
    debug.DEBUG = False
    assert get(path, remote_addr=REMOTE).content == remote.content


def test_ordinary_responses_pass_through(debug):
    response = get("/healthz", remote_addr=REMOTE)
    assert response.status_code == 200
    assert response.content == get("/healthz", remote_addr="127.0.0.1").content


def test_without_debug_everyone_gets_the_plain_page(settings):
    settings.DEBUG = False
    for remote_addr in (REMOTE, "127.0.0.1"):
        response = get("/healthz", remote_addr=remote_addr, HTTP_HOST="evil.example")
        assert response.status_code == 400
        assert "DisallowedHost" not in response.content.decode()


def test_over_http_through_a_proxy_the_debug_page_is_not_shown(debug, mcp_url):
    # The real ASGI stack (uvicorn, Django's async handler): a loopback peer that forwards a request
    # from elsewhere gets the plain page; the machine itself gets the debug page.
    import httpx2

    site = mcp_url.removesuffix("/mcp")
    proxied = httpx2.get(
        f"{site}/healthz", headers={"Host": "evil.example", "X-Forwarded-For": REMOTE}, timeout=10
    )
    assert proxied.status_code == 400
    assert "Bad Request (400)" in proxied.text and plain(proxied.text)
    direct = httpx2.get(f"{site}/healthz", headers={"Host": "evil.example"}, timeout=10)
    assert direct.status_code == 400 and "DisallowedHost" in direct.text
    assert not any(secret in direct.text for secret in SECRETS)
