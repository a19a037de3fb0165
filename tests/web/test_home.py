from __future__ import annotations

from accounts import actions
from accounts.models import Membership


def test_visitors_get_the_landing_page(client, db):
    html = client.get("/").content.decode()
    assert 'href="/signup/"' in html and 'href="/login/"' in html
    assert "<main" in html and 'class="skip-link"' in html


def test_the_overview_shows_the_sessions_team_only(as_user, cast):
    html = as_user(cast.member, cast.acme).get("/").content.decode()
    assert "Payments API" in html and "Website" in html
    assert "Secret lab" not in html
    assert 'href="/apps/"' in html  # the Connected apps page (OAuth) is linked from the navigation


def test_the_outsider_sees_their_own_team(as_user, cast):
    html = as_user(cast.outsider).get("/").content.decode()
    assert "Secret lab" in html
    assert "Payments API" not in html


def test_a_user_in_no_team_is_sent_to_create_one(as_user, db):
    loner = actions.create_user("lone@example.test", "correct horse battery")
    assert as_user(loner).get("/")["Location"] == "/teams/new/"


def test_a_session_team_the_user_left_falls_back_to_another(as_user, cast):
    second = actions.create_team(cast.member, "Side project")
    client = as_user(cast.member, cast.acme)
    Membership.objects.filter(team=cast.acme, user=cast.member).delete()
    html = client.get("/").content.decode()
    assert "Side project" in html
    assert "Payments API" not in html
    assert client.session["knownbase_team_id"] == second.pk


def test_unknown_pages_are_404_not_500(as_user, cast, client):
    assert client.get("/no/such/page/").status_code == 404
    response = as_user(cast.owner).get("/no/such/page/")
    assert response.status_code == 404
    assert "Sign out" in response.content.decode()  # the navigation stays


def test_refusals_explain_themselves_with_the_navigation(as_user, cast):
    response = as_user(cast.viewer, cast.acme).get("/teams/settings/")
    assert response.status_code == 403
    html = response.content.decode()
    assert "Only the team&#x27;s owners and admins can do this." in html
    assert "Sign out" in html
