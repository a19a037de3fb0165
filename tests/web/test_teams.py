from __future__ import annotations

from accounts import actions
from accounts.models import AuditEvent, Membership, Role, Team
from web.session import TEAM_SESSION_KEY


def test_the_switcher_lists_the_users_teams(as_user, cast):
    actions.create_team(cast.member, "Side project")
    html = as_user(cast.member).get("/teams/").content.decode()
    assert "Acme" in html and "Side project" in html
    assert "Globex" not in html


def test_switching_moves_the_session_principal(as_user, cast):
    side = actions.create_team(cast.member, "Side project")
    client = as_user(cast.member, cast.acme)
    response = client.post("/teams/switch/", {"team": side.slug})
    assert response["Location"] == "/"
    assert client.session[TEAM_SESSION_KEY] == side.pk
    html = client.get("/").content.decode()
    assert "Payments API" not in html  # acme's projects are no longer the session's
    assert "owner in this team" in html


def test_switching_to_a_team_the_user_is_not_in_is_404(as_user, cast):
    client = as_user(cast.outsider, cast.globex)
    assert client.post("/teams/switch/", {"team": "acme"}).status_code == 404
    assert client.post("/teams/switch/", {}).status_code == 404
    assert client.session[TEAM_SESSION_KEY] == cast.globex.pk
    assert client.get("/teams/switch/").status_code == 405


def test_create_a_team(as_user, cast):
    client = as_user(cast.viewer, cast.acme)
    response = client.post("/teams/new/", {"name": "  Viewer's   own  "})
    assert response["Location"] == "/"
    team = Team.objects.get(name="Viewer's own")
    assert Membership.objects.get(team=team, user=cast.viewer).role == Role.OWNER
    assert client.session[TEAM_SESSION_KEY] == team.pk
    assert AuditEvent.objects.filter(action="team.created", team=team).exists()


def test_create_a_team_with_a_bad_name_is_a_form_error(as_user, cast):
    client = as_user(cast.owner)
    assert client.post("/teams/new/", {"name": "   "}).status_code == 400
    assert client.post("/teams/new/", {"name": "x" * 500}).status_code == 400
    assert Team.objects.count() == 2


def test_owner_renames_the_team(as_user, cast):
    client = as_user(cast.owner, cast.acme)
    assert 'value="Acme"' in client.get("/teams/settings/").content.decode()
    response = client.post("/teams/settings/", {"name": "Acme Rockets"})
    assert response["Location"] == "/teams/settings/"
    cast.acme.refresh_from_db()
    assert cast.acme.name == "Acme Rockets"
    event = AuditEvent.objects.get(action="team.renamed")
    assert (event.team_id, event.actor_id, event.auth_method) == (cast.acme.pk, cast.owner.pk, "session")


def test_members_and_viewers_cannot_change_settings(as_user, cast):
    for user in (cast.member, cast.viewer):
        client = as_user(user, cast.acme)
        assert client.get("/teams/settings/").status_code == 403
        assert client.post("/teams/settings/", {"name": "Hijacked"}).status_code == 403
        client.logout()
    cast.acme.refresh_from_db()
    assert cast.acme.name == "Acme"


def test_the_outsider_only_ever_renames_their_own_team(as_user, cast):
    client = as_user(cast.outsider)
    session = client.session
    session[TEAM_SESSION_KEY] = cast.acme.pk  # a session pointing at a team they are not in
    session.save()
    client.post("/teams/settings/", {"name": "Hijacked"})
    cast.acme.refresh_from_db()
    assert cast.acme.name == "Acme"


def test_settings_form_errors(as_user, cast):
    client = as_user(cast.owner, cast.acme)
    assert client.post("/teams/settings/", {"name": ""}).status_code == 400
    assert client.post("/teams/settings/", {"name": "y" * 101}).status_code == 400


def test_a_team_name_holding_a_secret_is_refused_on_the_pages(as_user, cast):
    secret = "sk_live_51HxYzAbCdEfGhIjKlMnOpQr"
    client = as_user(cast.owner, cast.acme)
    refused = client.post("/teams/new/", {"name": secret})
    assert refused.status_code == 400 and "Refused" in refused.content.decode()
    renamed = client.post("/teams/settings/", {"name": f"Acme {secret}"})
    assert renamed.status_code == 400
    assert not Team.objects.filter(name__contains="sk_live").exists()
    assert not Team.objects.filter(slug__contains="sk-live").exists()
