from __future__ import annotations

import json
import re
from datetime import timedelta

from django.utils import timezone

from accounts import actions
from accounts.models import ApiKey, AuditEvent, Membership, Role
from accounts.principal import principal_for_api_key
from accounts.site import mcp_url


def _create(client, **fields):
    return client.post(
        "/keys/new/", {"name": "laptop", "project": "", "access": "read_write", "expires": "", **fields}
    )


def _raw_key(html: str) -> str:
    match = re.search(r'id="raw-key"[^>]*value="(kb_[^"]+)"', html)
    assert match, html
    return match.group(1)


def test_a_new_key_is_shown_once_with_every_client_configuration(as_user, cast):
    client = as_user(cast.owner, cast.acme)
    response = _create(client)
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    html = response.content.decode()
    raw = _raw_key(html)
    for client_name in ("Claude Code", "Cursor", "VS Code", "Codex", "Windsurf", "Any HTTP client", "stdio"):
        assert client_name in html
    assert f"claude mcp add --transport http knownbase {mcp_url()} --header" in html
    assert "data-copy=" in html

    key = ApiKey.objects.get()
    assert raw not in str(list(ApiKey.objects.values()))  # only the lookup and a digest are stored
    principal = principal_for_api_key(raw)
    assert principal is not None
    assert (principal.team_id, principal.user_id, principal.project_id, principal.read_only) == (
        cast.acme.pk,
        cast.owner.pk,
        None,
        False,
    )
    event = AuditEvent.objects.get(action="api_key.created")
    assert (event.actor_id, event.auth_method, event.object_id) == (
        cast.owner.pk,
        "session",
        key.display_prefix,
    )

    listing = client.get("/keys/").content.decode()
    assert key.display_prefix in listing and raw not in listing


def test_a_project_scoped_read_only_key_with_expiry(as_user, cast):
    client = as_user(cast.owner, cast.acme)
    response = _create(client, project=cast.website.slug, access="read_only", expires="30")
    principal = principal_for_api_key(_raw_key(response.content.decode()))
    assert principal is not None
    assert (principal.project_id, principal.read_only) == (cast.website.pk, True)
    key = ApiKey.objects.get()
    assert key.expires_at is not None
    assert timedelta(days=29) < key.expires_at - timezone.now() <= timedelta(days=30)
    listing = client.get("/keys/").content.decode()
    assert "Website, read only" in listing


def test_only_owners_and_admins_create_keys(as_user, cast):
    for user in (cast.member, cast.viewer):
        client = as_user(user, cast.acme)
        assert "Create a key" not in client.get("/keys/").content.decode()
        assert _create(client).status_code == 403
        assert _create(client, access="read_only").status_code == 403
        client.logout()
    assert not ApiKey.objects.exists()
    Membership.objects.filter(team=cast.acme, user=cast.member).update(role=Role.ADMIN)
    assert _create(as_user(cast.member, cast.acme)).status_code == 200
    assert ApiKey.objects.get().user == cast.member


def test_members_see_their_own_keys_and_owners_see_all(as_user, cast):
    actions.issue_api_key(cast.acme, cast.owner, name="olivia's key")
    actions.issue_api_key(cast.acme, cast.member, name="mia's key")
    actions.issue_api_key(cast.acme, cast.viewer, name="victor's key", read_only=True)
    actions.issue_api_key(cast.globex, cast.outsider, name="oscar's key")
    member_html = as_user(cast.member, cast.acme).get("/keys/").content.decode()
    assert "mia&#x27;s key" in member_html
    assert "olivia&#x27;s key" not in member_html and "victor&#x27;s key" not in member_html
    viewer_html = as_user(cast.viewer, cast.acme).get("/keys/").content.decode()
    assert "victor&#x27;s key" in viewer_html and "mia&#x27;s key" not in viewer_html
    owner_html = as_user(cast.owner, cast.acme).get("/keys/").content.decode()
    for name in ("olivia", "mia", "victor"):
        assert f"{name}&#x27;s key" in owner_html
    assert "oscar&#x27;s key" not in owner_html
    Membership.objects.filter(team=cast.acme, user=cast.member).update(role=Role.ADMIN)
    admin_html = as_user(cast.member, cast.acme).get("/keys/").content.decode()
    assert "olivia&#x27;s key" in admin_html and "victor&#x27;s key" in admin_html


def test_the_list_shows_last_use(as_user, cast):
    _, raw = actions.issue_api_key(cast.acme, cast.member, name="used")
    assert "never" in as_user(cast.member, cast.acme).get("/keys/").content.decode()
    principal_for_api_key(raw)  # a request with the key
    key = ApiKey.objects.get()
    assert key.last_used_at is not None
    html = as_user(cast.member, cast.acme).get("/keys/").content.decode()
    assert key.last_used_at.strftime("%Y-%m-%d %H:%M") in html


def test_revoke_a_key(as_user, cast):
    key, raw = actions.issue_api_key(cast.acme, cast.member)
    client = as_user(cast.owner, cast.acme)
    assert client.post(f"/keys/{key.display_prefix}/revoke/", {"confirmed": "yes"})["Location"] == "/keys/"
    assert principal_for_api_key(raw) is None
    event = AuditEvent.objects.get(action="api_key.revoked")
    assert (event.actor_id, event.object_id) == (cast.owner.pk, key.display_prefix)
    assert (
        client.post(f"/keys/{key.display_prefix}/revoke/", {"confirmed": "yes"}).status_code == 404
    )  # already revoked


def test_revoke_in_place_answers_htmx_with_the_rows_replacement(as_user, cast):
    key, raw = actions.issue_api_key(cast.acme, cast.member, name="old laptop")
    client = as_user(cast.owner, cast.acme)
    assert 'hx-post="/keys/' in client.get("/keys/").content.decode()
    response = client.post(
        f"/keys/{key.display_prefix}/revoke/", {"confirmed": "yes"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.startswith("<tr") and "old laptop" in html and "is revoked" in html
    assert principal_for_api_key(raw) is None


def test_owners_revoke_any_team_key_members_not_even_their_own(as_user, cast):
    owners_key, _ = actions.issue_api_key(cast.acme, cast.owner)
    members_key, _ = actions.issue_api_key(cast.acme, cast.member)
    viewers_key, _ = actions.issue_api_key(cast.acme, cast.viewer, read_only=True)
    member = as_user(cast.member, cast.acme)
    assert member.post(f"/keys/{owners_key.display_prefix}/revoke/", {"confirmed": "yes"}).status_code == 404
    assert member.post(f"/keys/{members_key.display_prefix}/revoke/", {"confirmed": "yes"}).status_code == 403
    assert "Revoke" not in member.get("/keys/").content.decode()
    member.logout()
    owner = as_user(cast.owner, cast.acme)
    assert owner.post(f"/keys/{viewers_key.display_prefix}/revoke/", {"confirmed": "yes"}).status_code == 302
    for key in (owners_key, members_key, viewers_key):
        key.refresh_from_db()
    assert owners_key.revoked_at is None and members_key.revoked_at is None
    assert viewers_key.revoked_at is not None


def test_the_outsider_cannot_touch_acme_keys(as_user, cast):
    key, raw = actions.issue_api_key(cast.acme, cast.owner)
    client = as_user(cast.outsider, cast.globex)
    assert client.post(f"/keys/{key.display_prefix}/revoke/", {"confirmed": "yes"}).status_code == 404
    assert key.display_prefix not in client.get("/keys/").content.decode()
    # A project of another team is not a choice.
    refused = _create(client, project=cast.payments.slug)
    assert refused.status_code == 400
    assert principal_for_api_key(raw) is not None
    assert not ApiKey.objects.filter(team=cast.globex).exists()


def test_the_key_cap_is_refused_clearly(as_user, cast):
    cast.plan.max_api_keys = 1
    cast.plan.save()
    client = as_user(cast.owner, cast.acme)
    assert _create(client).status_code == 200
    refused = _create(client, name="second")
    assert refused.status_code == 402  # the REST API's status for a plan limit
    assert "allows 1 API keys" in refused.content.decode()
    assert ApiKey.objects.count() == 1


def test_bad_input_is_a_form_error(as_user, cast):
    client = as_user(cast.owner, cast.acme)
    for fields in (
        {"name": "   "},
        {"name": "x" * 500},
        {"project": "prj_doesnotexist"},
        {"access": "admin"},
        {"expires": "-5"},
        {"expires": "forever"},
    ):
        response = _create(client, **fields)
        assert response.status_code == 400, fields
    assert client.post("/keys/new/", {}).status_code == 400
    assert not ApiKey.objects.exists()


def test_key_pages_need_a_signed_in_team_member(client, cast):
    assert client.get("/keys/")["Location"] == "/login/?next=/keys/"
    assert client.post("/keys/new/", {"name": "x"}).status_code == 302
    assert not ApiKey.objects.exists()
    assert client.get("/keys/new/").status_code == 302
    signed_in = client
    signed_in.force_login(cast.member)
    assert signed_in.get("/keys/new/")["Location"] == "/keys/"  # a refresh after a new key


def test_the_generic_configuration_on_the_page_is_valid_json(as_user, cast):
    html = _create(as_user(cast.owner, cast.acme)).content.decode()
    block = re.search(r'id="config-http-text"[^>]*>(.*?)</pre>', html, re.S)
    assert block
    document = json.loads(block.group(1).replace("&quot;", '"'))
    assert document["url"] == mcp_url()
    assert document["headers"]["Authorization"] == f"Bearer {_raw_key(html)}"


def test_the_new_key_page_gives_the_hook_and_rules_file_commands_without_the_key(as_user, cast):
    client = as_user(cast.owner, cast.acme)
    everywhere = _create(client).content.decode()
    raw = _raw_key(everywhere)
    hooks = everywhere.split('id="hooks"', 1)[1]
    for slug in ("claude-code-hook", "cursor-rules", "agents-md"):
        assert f'id="config-{slug}-text"' in hooks
    assert raw not in hooks and "${KNOWNBASE_API_KEY}" in hooks
    assert "<code>KNOWNBASE_PROJECT</code>" in hooks and "/projects/${KNOWNBASE_PROJECT}/context" in hooks
    scoped = _create(client, project=cast.payments.slug, access="read_only").content.decode()
    hooks = scoped.split('id="hooks"', 1)[1]
    assert (
        "<code>KNOWNBASE_PROJECT</code>" not in hooks
        and "/projects/payments/context?format=markdown" in hooks
    )


def test_refreshing_the_new_key_page_goes_back_to_the_list(as_user, cast):
    response = as_user(cast.owner, cast.acme).get("/keys/new/")
    assert response.status_code == 302 and response["Location"] == "/keys/"
