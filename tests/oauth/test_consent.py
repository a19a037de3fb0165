"""The consent page: the client's name and where it sends the user back, then the team (of the
user's memberships), optionally one project of that team, and read-only or read-write. The token
then acts exactly like an API key of that scope."""

from __future__ import annotations

from accounts.models import AuditEvent, OAuthConnection
from tests.live_mcp import McpCaller
from tests.oauth.flow import (
    Authorization,
    Browser,
    Site,
    connect,
    mcp_status,
    read_form,
    redirect_params,
    registered_client,
)


def test_the_page_names_the_client_and_offers_the_users_teams_and_projects(site: Site, cast):
    authorization = Authorization(site, registered_client(site, ["http://127.0.0.1:4000/cb"]))
    authorization.redirect_uri = "http://127.0.0.1:4000/cb"
    page = Browser(site, cast.member.email).get(authorization.url())
    assert page.status_code == 200
    assert "Test agent" in page.text and "127.0.0.1:4000" in page.text
    form = read_form(page.text)
    assert form.options["team"] == ["acme"]
    assert form.options["project"] == ["", cast.payments.public_id, cast.website.public_id]
    assert {"allow", "deny"} <= set(form.buttons)
    assert 'nav aria-label="Main"' in page.text and "Sign out" in page.text  # the app's own header


def test_one_project_read_write(site: Site, cast):
    connected = connect(site, Browser(site, cast.member.email), project=cast.website.public_id)
    mcp = McpCaller(site.mcp)
    assert [p["slug"] for p in mcp.ok(connected.access_token, "list_projects")["projects"]] == ["website"]
    assert mcp.error(connected.access_token, "get_context", {"project": "payments"})["code"] == "not_found"
    assert mcp.ok(
        connected.access_token, "remember", {"project": "website", "content": "The CDN caches for 5 min."}
    )
    connection = OAuthConnection.objects.get(user=cast.member)
    assert (connection.project_id, connection.read_only) == (cast.website.pk, False)
    assert connected.tokens["scope"] == "read write"
    audit = AuditEvent.objects.get(action="oauth.connected")
    assert (audit.actor_id, audit.object_id, audit.detail["project_scoped"]) == (
        cast.member.pk,
        connection.public_id,
        True,
    )


def test_a_viewer_connection_is_read_only_whatever_was_chosen(site: Site, cast):
    connected = connect(site, Browser(site, cast.viewer.email), access="read_write")
    assert OAuthConnection.objects.get(user=cast.viewer).read_only
    assert connected.tokens["scope"] == "read"
    error = McpCaller(site.mcp).error(
        connected.access_token, "remember", {"project": "payments", "content": "x y"}
    )
    assert error["code"] == "insufficient_scope" and "viewer" in error["message"]


def test_deny_sends_access_denied_back_and_connects_nothing(site: Site, cast):
    authorization = Authorization(site, registered_client(site))
    params = redirect_params(Browser(site, cast.member.email).consent(authorization.url(), allow=False))
    assert (params["error"], params["state"]) == ("access_denied", authorization.state)
    assert "code" not in params
    assert not OAuthConnection.objects.exists()


def test_an_outsider_cannot_grant_another_teams_project(site: Site, cast):
    authorization = Authorization(site, registered_client(site))
    browser = Browser(site, cast.outsider.email)
    page = browser.get(authorization.url())
    assert read_form(page.text).options["team"] == ["globex"]
    assert cast.payments.public_id not in page.text
    # A tampered form: another team, or another team's project under the outsider's own team.
    for choices in ({"team": "acme"}, {"team": "globex", "project": cast.payments.public_id}):
        refused = browser.post_form(authorization.url(), page, access="read_write", allow="on", **choices)
        assert refused.status_code == 400 and "location" not in refused.headers
    assert not OAuthConnection.objects.exists()

    connected = connect(site, browser, team="globex")
    mcp = McpCaller(site.mcp)
    assert [p["slug"] for p in mcp.ok(connected.access_token, "list_projects")["projects"]] == ["lab"]
    assert mcp.error(connected.access_token, "get_context", {"project": "payments"})["code"] == "not_found"


def test_the_token_stops_working_when_the_user_leaves_the_team(site: Site, cast):
    connected = connect(site, Browser(site, cast.member.email))
    assert mcp_status(site, connected.access_token) == 200
    cast.acme.memberships.filter(user=cast.member).delete()
    assert mcp_status(site, connected.access_token) == 401


def test_a_client_cannot_skip_the_consent_page(site: Site, cast):
    authorization = Authorization(site, registered_client(site))
    browser = Browser(site, cast.member.email)
    code = redirect_params(browser.consent(authorization.url()))["code"]
    assert authorization.exchange(code).status_code == 200
    # DOT would approve silently for a user with a live token of that client; here it asks again.
    page = browser.get(authorization.url(approval_prompt="auto"))
    assert page.status_code == 200 and "consent-form" in page.text
