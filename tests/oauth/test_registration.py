"""Dynamic client registration (RFC 7591): anonymous, for public clients, the authorization code
grant only, and limited per client address."""

from __future__ import annotations

from oauth2_provider.models import Application

from tests.oauth.flow import Site, register


def test_an_anonymous_public_client_registers(site: Site):
    response = register(site)
    assert response.status_code == 201
    body = response.json()
    assert body["token_endpoint_auth_method"] == "none" and "client_secret" not in body
    assert body["grant_types"] == ["authorization_code", "refresh_token"]
    application = Application.objects.get(client_id=body["client_id"])
    assert (application.client_type, application.user_id, application.name) == ("public", None, "Test agent")
    assert application.registration_source == Application.RegistrationSource.DCR


def test_only_the_authorization_code_grant_may_be_registered(site: Site):
    refused = register(
        site, grant_types=["client_credentials"], token_endpoint_auth_method="client_secret_basic"
    )
    assert refused.status_code == 400 and refused.json()["error"] == "invalid_client_metadata"
    assert not Application.objects.exists()


def test_registrations_are_limited_per_client_address(site: Site, settings):
    settings.OAUTH_REGISTRATIONS_PER_IP_PER_MINUTE = 2
    assert [register(site).status_code for _ in range(3)] == [201, 201, 429]
    limited = register(site)
    assert limited.json()["error"] == "rate_limited" and int(limited.headers["retry-after"]) >= 1
    assert Application.objects.count() == 2


def test_a_client_name_holding_a_secret_is_refused(site: Site):
    secret = "sk_live_51HxYzAbCdEfGhIjKlMnOpQr"
    refused = register(site, client_name=f"Agent {secret}")
    assert refused.status_code == 400 and refused.json()["error"] == "invalid_client_metadata"
    assert "Refused" in refused.json()["error_description"] and secret not in refused.text
    assert not Application.objects.exists()
    assert register(site, client_name="Claude Desktop").status_code == 201
