"""The Connected apps page: every OAuth connection of the signed-in user with its scope and last
use; revoking one ends its access on the very next request."""

from __future__ import annotations

from accounts.models import AuditEvent, OAuthConnection
from tests.oauth.flow import Browser, Site, connect, mcp_status, refresh


def test_the_page_needs_a_login(site: Site):
    browser = Browser(site, "nobody@example.test")
    answer = browser.http.get("/apps/")
    assert answer.status_code == 302 and answer.headers["location"].startswith("/login/?next=/apps/")


def test_lists_the_users_connections_with_scope_and_last_use(site: Site, cast):
    browser = Browser(site, cast.member.email)
    connected = connect(site, browser, project=cast.payments.public_id, access="read_only")
    connect(site, Browser(site, cast.owner.email))  # someone else's
    page = browser.get("/apps/")
    assert page.status_code == 200
    assert page.text.count('aria-label="Revoke Test agent"') == 1  # not the owner's connection
    assert "Acme" in page.text and "Payments API" in page.text and "Read only" in page.text
    assert "Never" in page.text  # not used yet
    assert mcp_status(site, connected.access_token) == 200
    page = browser.get("/apps/")
    assert "Never" not in page.text
    used = OAuthConnection.objects.get(user=cast.member).last_used_at
    assert used is not None and used.strftime("%Y-%m-%d %H:%M") in page.text


def test_revoke_ends_access_on_the_next_request(site: Site, cast):
    browser = Browser(site, cast.member.email)
    connected = connect(site, browser)
    assert mcp_status(site, connected.access_token) == 200
    connection = OAuthConnection.objects.get(user=cast.member)
    page = browser.get("/apps/")
    revoked = browser.post_form(f"/apps/{connection.public_id}/revoke/", page)
    assert revoked.status_code == 302 and revoked.headers["location"] == "/apps/"
    assert mcp_status(site, connected.access_token) == 401
    assert refresh(site, connected.client_id, connected.refresh_token).json()["error"] == "invalid_grant"
    after = browser.get("/apps/")
    assert "can no longer use Knownbase" in after.text and "Read and write" not in after.text
    event = AuditEvent.objects.get(action="oauth.revoked")
    assert (event.actor_id, event.object_id) == (cast.member.pk, connection.public_id)


def test_nobody_else_can_revoke_a_connection(site: Site, cast):
    connected = connect(site, Browser(site, cast.member.email))
    connection = OAuthConnection.objects.get(user=cast.member)
    owner = Browser(site, cast.owner.email)
    page = owner.get("/apps/")
    assert connection.public_id not in page.text
    assert owner.post(f"/apps/{connection.public_id}/revoke/").status_code == 404
    assert mcp_status(site, connected.access_token) == 200
