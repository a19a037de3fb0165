"""What the token and revocation endpoints do beyond DOT's defaults: a replayed authorization code
revokes the tokens issued from it (RFC 6749 §4.1.2), and a client cannot revoke, nor be told it
revoked, another client's token (RFC 7009 §2.1)."""

from __future__ import annotations

import httpx2
import pytest
from oauth2_provider.models import Application
from oauthlib.common import Request
from oauthlib.oauth2.rfc6749 import errors

from accounts.models import AuditEvent, OAuthConnection
from tests.oauth.flow import Authorization, Browser, Site, connect, mcp_status, redirect_params, refresh
from web.oauth.validator import KnownbaseValidator


def test_a_replayed_code_is_refused_and_revokes_the_tokens_issued_from_it(site: Site, cast):
    browser = Browser(site, cast.member.email)
    authorization = Authorization(site, connect(site, browser).client_id)
    code = redirect_params(browser.consent(authorization.url()))["code"]
    first = authorization.exchange(code)
    assert first.status_code == 200
    tokens = first.json()
    assert mcp_status(site, tokens["access_token"]) == 200

    replay = authorization.exchange(code)
    assert replay.status_code == 400 and replay.json()["error"] == "invalid_grant"
    assert mcp_status(site, tokens["access_token"]) == 401
    assert refresh(site, authorization.client_id, tokens["refresh_token"]).json()["error"] == "invalid_grant"
    replayed = OAuthConnection.objects.get(revoked_at__isnull=False)
    event = AuditEvent.objects.get(action="oauth.code_replayed")
    assert (event.team_id, event.object_id) == (cast.acme.pk, replayed.public_id)
    # The user's other connection (the first `connect`) is untouched.
    assert OAuthConnection.objects.live().filter(user=cast.member).count() == 1


def test_a_code_consumed_by_a_concurrent_exchange_revokes_its_tokens_too(site: Site, cast):
    # Two exchanges of one code at once both pass validate_code; the second then finds the grant gone
    # when it invalidates it, and that too is a replay.
    browser = Browser(site, cast.member.email)
    authorization = Authorization(site, connect(site, browser).client_id)
    code = redirect_params(browser.consent(authorization.url()))["code"]
    tokens = authorization.exchange(code).json()
    request = Request(f"{site.url}/oauth/token/")
    request.client = Application.objects.get(client_id=authorization.client_id)
    with pytest.raises(errors.InvalidGrantError):
        KnownbaseValidator().invalidate_authorization_code(authorization.client_id, code, request)
    assert mcp_status(site, tokens["access_token"]) == 401


def test_an_unknown_code_revokes_nothing(site: Site, cast):
    connected = connect(site, Browser(site, cast.member.email))
    authorization = Authorization(site, connected.client_id)
    assert authorization.exchange("never-issued").json()["error"] == "invalid_grant"
    assert mcp_status(site, connected.access_token) == 200
    assert not AuditEvent.objects.filter(action="oauth.code_replayed").exists()


def _revoke(site: Site, client_id: str, token: str) -> httpx2.Response:
    return httpx2.post(f"{site.url}/oauth/revoke/", data={"token": token, "client_id": client_id})


def test_revoking_another_clients_token_is_refused_and_revokes_nothing(site: Site, cast):
    browser = Browser(site, cast.member.email)
    victim, other = connect(site, browser), connect(site, browser)

    for token in (victim.access_token, victim.refresh_token):
        answer = _revoke(site, other.client_id, token)
        assert answer.status_code == 400, answer.text
        assert answer.json()["error"] == "unauthorized_client"
    assert mcp_status(site, victim.access_token) == 200
    assert refresh(site, victim.client_id, victim.refresh_token).status_code == 200


def test_a_client_revokes_its_own_token_and_an_unknown_one_is_still_200(site: Site, cast):
    connected = connect(site, Browser(site, cast.member.email))
    assert _revoke(site, connected.client_id, "no-such-token").status_code == 200
    assert _revoke(site, connected.client_id, connected.access_token).status_code == 200
    assert mcp_status(site, connected.access_token) == 401
