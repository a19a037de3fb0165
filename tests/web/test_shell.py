"""The app shell every signed-in page renders (templates/base.html, web/pages.py): grouped navigation,
team and plan, sign-out, the cap banner with the way out; and the confirmation that destructive
actions ask for without script (web/confirm.py)."""

from __future__ import annotations

import pytest

from accounts import actions
from accounts.models import ApiKey, Membership
from memory import store
from memory.models import Project

SIGNED_IN_PAGES = ["/", "/conflicts/", "/keys/", "/teams/members/", "/team/usage/", "/billing/", "/apps/"]


@pytest.mark.parametrize("path", SIGNED_IN_PAGES)
def test_every_signed_in_page_has_the_shell(as_user, cast, path):
    html = as_user(cast.owner, cast.acme).get(path).content.decode()
    assert 'aria-label="Main"' in html
    for group in ("Connect an agent", "Team", "Usage &amp; billing"):
        assert f'<span class="group-name">{group}</span>' in html
    assert 'href="/billing/"' in html and 'href="/apps/"' in html and 'href="/keys/"' in html
    assert '<span class="team-name">Acme</span> <span class="badge">Developer</span>' in html
    assert "Sign out" in html and "Sign up" not in html


def test_the_oauth_consent_page_has_the_shell(as_user, cast):
    # Rendered by django-oauth-toolkit's view, not `page`: the context processor brings the shell.
    html = as_user(cast.owner, cast.acme).get("/oauth/authorize/?client_id=nobody").content.decode()
    assert 'aria-label="Main"' in html and "Sign out" in html


def test_signed_out_pages_have_no_shell(client, db):
    html = client.get("/login/").content.decode()
    assert 'aria-label="Main"' not in html and "Sign up" in html


def test_the_banner_warns_at_eighty_percent_and_at_the_cap(as_user, cast, settings):
    settings.STRIPE_SECRET_KEY = ""
    Membership.objects.filter(user=cast.viewer).delete()  # 2 of 3 members: no banner yet
    client = as_user(cast.owner, cast.acme)
    assert "Plan caps" not in client.get("/").content.decode()

    for n in range(14):  # 16 of the Developer plan's 20 projects
        Project.objects.create(team=cast.acme, slug=f"extra-{n}", name=f"Extra {n}")
    html = client.get("/keys/").content.decode()
    assert 'class="cap-banner"' in html
    assert "This team has used 16 of its 20 projects on the Developer plan." in html
    # No Stripe on this server: the way out says who can change the plan, and no dead-end link.
    assert "ask its staff to change the team&#x27;s plan" in html
    assert "Go to billing" not in html

    Membership.objects.create(team=cast.acme, user=cast.viewer, role="viewer")
    html = client.get("/keys/").content.decode()
    assert 'class="cap-banner full"' in html
    assert (
        "This team has reached its cap of 3 members on the Developer plan: the next one is refused." in html
    )


def test_with_stripe_owners_get_a_link_to_billing(as_user, cast, settings):
    settings.STRIPE_SECRET_KEY = "sk_test_shell"
    assert "Go to billing" in as_user(cast.owner, cast.acme).get("/").content.decode()


def test_the_shell_reads_the_caps_once_per_request(as_user, cast, monkeypatch):
    calls = []
    real = store.get_cap_standing

    def counted(principal):
        calls.append(principal)
        return real(principal)

    monkeypatch.setattr(store, "get_cap_standing", counted)
    as_user(cast.owner, cast.acme).get("/billing/")
    assert len(calls) == 1


def test_revoking_a_key_without_the_dialog_asks_on_a_page_first(as_user, cast):
    client = as_user(cast.owner, cast.acme)
    _, raw = actions.issue_api_key(cast.acme, cast.owner, project_id=None, read_only=False, name="laptop")
    key = ApiKey.authenticate(raw)
    assert key is not None
    url = f"/keys/{key.display_prefix}/revoke/"
    asked = client.post(url)
    html = asked.content.decode()
    assert asked.status_code == 200
    assert "Revoke the key “laptop”?" in html and 'name="confirmed" value="yes"' in html
    assert ApiKey.authenticate(raw) is not None  # nothing revoked yet
    assert client.post(url, {"confirmed": "yes"})["Location"] == "/keys/"
    assert ApiKey.authenticate(raw) is None


def test_removing_a_member_without_the_dialog_asks_on_a_page_first(as_user, cast):
    client = as_user(cast.owner, cast.acme)
    asked = client.post("/teams/members/remove/", {"email": "mia@acme.test"})
    html = asked.content.decode()
    assert asked.status_code == 200 and "Remove mia@acme.test from the team?" in html
    assert 'name="email" value="mia@acme.test"' in html
    assert Membership.objects.filter(user=cast.member).exists()
    client.post("/teams/members/remove/", {"email": "mia@acme.test", "confirmed": "yes"})
    assert not Membership.objects.filter(user=cast.member).exists()


def test_keys_and_members_tables_reflow_with_labels(as_user, cast):
    client = as_user(cast.owner, cast.acme)
    members = client.get("/teams/members/").content.decode()
    assert '<table class="reflow">' in members and 'data-label="Role"' in members
    keys = client.get("/keys/").content.decode()
    assert 'class="empty-state"' in keys and "No keys yet" in keys
