"""The authorization code flow requires PKCE with S256: a request without a challenge, with the
`plain` method, or with a challenge but no method (which means plain) is refused before the
consent page, back to the client with invalid_request."""

from __future__ import annotations

import pytest
from oauth2_provider.models import Grant

from accounts.models import OAuthConnection
from tests.oauth.flow import Authorization, Browser, Site, redirect_params, registered_client


@pytest.mark.parametrize(
    "overrides",
    [
        {"code_challenge": None, "code_challenge_method": None},
        {"code_challenge_method": "plain"},
        {"code_challenge_method": None},
    ],
    ids=["no-challenge", "plain", "challenge-without-method"],
)
def test_authorization_without_s256_is_refused(site: Site, cast, overrides):
    authorization = Authorization(site, registered_client(site))
    browser = Browser(site, cast.member.email)
    answer = browser.get(authorization.url(**overrides))
    params = redirect_params(answer)
    assert answer.headers["location"].startswith(authorization.redirect_uri)
    assert params["error"] == "invalid_request" and params["state"] == authorization.state
    assert "code" not in params
    assert not Grant.objects.exists() and not OAuthConnection.objects.exists()


def test_s256_reaches_the_consent_page_and_the_verifier_is_checked(site: Site, cast):
    authorization = Authorization(site, registered_client(site))
    browser = Browser(site, cast.member.email)
    page = browser.get(authorization.url())
    assert page.status_code == 200 and "Test agent" in page.text
    code = redirect_params(
        browser.post_form(authorization.url(), page, team="acme", access="read_write", allow="on")
    )["code"]
    wrong = authorization.exchange(code, code_verifier="x" * 64)
    assert wrong.status_code == 400 and wrong.json()["error"] == "invalid_grant"
