"""Redirect URIs: loopback (127.0.0.1, [::1], localhost) match on everything but the port; any
other URI byte for byte; plain http only on loopback, refused at registration and at authorization."""

from __future__ import annotations

import pytest
from oauth2_provider.models import Application

from tests.oauth.flow import Authorization, Browser, Site, register, registered_client
from web.oauth.redirects import redirect_uri_allowed, redirect_uri_problem

ANY_PORT = [
    ("http://127.0.0.1/callback", "http://127.0.0.1:53102/callback"),
    ("http://127.0.0.1:8080/callback", "http://127.0.0.1:53102/callback"),
    ("http://[::1]:9000/cb?x=1", "http://[::1]:4711/cb?x=1"),
    ("http://localhost:3000/oauth/callback", "http://localhost:62000/oauth/callback"),
]
REFUSED = [
    # Loopback, but more than the port differs.
    ("http://127.0.0.1:8080/callback", "http://127.0.0.1:8080/callback/"),
    ("http://127.0.0.1:8080/callback", "http://localhost:8080/callback"),
    ("http://127.0.0.1/callback", "http://127.0.0.1:5000/callback?extra=1"),
    ("http://127.0.0.1/callback", "http://127.0.0.1:5000/callback?"),
    ("http://localhost/cb", "http://localhost.example.com/cb"),
    ("http://127.0.0.1/cb", "http://127.0.0.1@example.com/cb"),
    ("http://localhost/cb", "http://LOCALHOST/cb"),
    # Anything else: byte for byte, so no case folding, default ports or trailing slashes.
    ("https://app.example.com/cb", "https://APP.example.com/cb"),
    ("https://app.example.com/cb", "https://app.example.com:443/cb"),
    ("https://app.example.com/cb", "https://app.example.com/cb/"),
    ("https://app.example.com/cb", "https://app.example.com/cb?next=/"),
    ("https://app.example.com/cb", "https://app.example.com/cb#top"),
    ("https://app.example.com:8443/cb", "https://app.example.com:9443/cb"),
    # A registered plain-http URI on a real host can never be used.
    ("http://app.example.com/cb", "http://app.example.com/cb"),
]


@pytest.mark.parametrize(("registered", "requested"), ANY_PORT)
def test_loopback_matches_on_everything_but_the_port(registered, requested):
    assert redirect_uri_allowed(requested, [registered])


@pytest.mark.parametrize(("registered", "requested"), REFUSED)
def test_other_differences_are_refused(registered, requested):
    assert not redirect_uri_allowed(requested, [registered])


@pytest.mark.parametrize(
    ("uri", "allowed"),
    [
        ("https://app.example.com/cb", True),
        ("http://127.0.0.1:8000/cb", True),
        ("http://[::1]/cb", True),
        ("http://localhost/cb", True),
        ("http://app.example.com/cb", False),
        ("http://10.0.0.5/cb", False),
        ("http://127.0.0.1.nip.io/cb", False),
        ("https://app.example.com/cb#frag", False),
    ],
)
def test_which_uris_may_be_registered(uri, allowed):
    assert (redirect_uri_problem(uri) is None) is allowed


def test_registration_refuses_http_on_a_real_host(site: Site):
    refused = register(site, ["https://app.example.com/cb", "http://app.example.com/cb"])
    assert refused.status_code == 400
    assert refused.json()["error"] == "invalid_redirect_uri"
    assert "loopback" in refused.json()["error_description"]
    assert not Application.objects.exists()
    assert register(site, ["https://app.example.com/cb", "http://[::1]/cb"]).status_code == 201


def test_loopback_differing_only_in_port_reaches_consent(site: Site, cast):
    client_id = registered_client(site, ["http://127.0.0.1:5000/callback"])
    page = Browser(site, cast.member.email).get(
        Authorization(site, client_id, "http://127.0.0.1:61234/callback").url()
    )
    assert page.status_code == 200 and "127.0.0.1:61234" in page.text


@pytest.mark.parametrize(
    ("registered", "requested"),
    [
        ("https://app.example.com/cb", "https://app.example.com/cb/"),
        ("https://app.example.com/cb", "https://evil.example.com/cb"),
        ("http://127.0.0.1:5000/callback", "http://127.0.0.1:5000/other"),
    ],
)
def test_a_differing_redirect_uri_gets_an_error_page_and_no_redirect(site: Site, cast, registered, requested):
    client_id = registered_client(site, [registered])
    answer = Browser(site, cast.member.email).get(Authorization(site, client_id, requested).url())
    assert answer.status_code == 400
    assert "cannot be completed" in answer.text


def test_http_on_a_real_host_is_refused_at_authorization_too(site: Site, cast):
    # Registration refuses such a URI; one that got in another way (the admin) is still never used.
    Application.objects.create(
        client_id="legacy",
        client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris="http://app.example.com/cb",
        name="Legacy",
    )
    answer = Browser(site, cast.member.email).get(
        Authorization(site, "legacy", "http://app.example.com/cb").url()
    )
    assert answer.status_code == 400 and "location" not in answer.headers
