from __future__ import annotations

from accounts.models import AuditEvent, Membership, Role, Team, User
from memory.models import Project
from tests.web.conftest import link_in


def _form(**overrides):
    return {
        "email": "Nora@Example.test",
        "name": "Nora Newcomer",
        "password": "plum tree harbour",
        "team": "",
        **overrides,
    }


def test_signup_page_has_a_labelled_form(client, db):
    response = client.get("/signup/")
    assert response.status_code == 200
    html = response.content.decode()
    for field in ("email", "name", "password", "team"):
        assert f'for="id_{field}"' in html
    assert "csrfmiddlewaretoken" in html


def test_signup_creates_user_team_project_and_signs_in(client, db, mailoutbox):
    response = client.post("/signup/", _form())
    assert response.status_code == 302 and response["Location"] == "/"

    user = User.objects.get(email="nora@example.test")
    assert user.check_password("plum tree harbour")
    assert not user.email_verified
    membership = Membership.objects.get(user=user)
    assert membership.role == Role.OWNER
    assert membership.team.name == "Nora's team"
    assert list(Project.objects.filter(team=membership.team).values_list("name", flat=True)) == [
        "My first project"
    ]
    actions = set(AuditEvent.objects.filter(team=membership.team).values_list("action", flat=True))
    assert {"team.created", "project.created", "user.signed_up"} <= actions

    overview = client.get("/")
    assert overview.status_code == 200
    assert "Nora&#x27;s team" in overview.content.decode()
    assert "My first project" in overview.content.decode()

    assert len(mailoutbox) == 1
    assert mailoutbox[0].to == ["nora@example.test"]
    assert link_in(mailoutbox[0].body).startswith("/verify-email/")


def test_signup_with_a_team_name(client, db):
    client.post("/signup/", _form(team="Night Shift"))
    assert Team.objects.filter(name="Night Shift", memberships__user__email="nora@example.test").exists()


def test_taken_address_is_a_form_error(client, cast):
    response = client.post("/signup/", _form(email="OLIVIA@acme.test"))
    assert response.status_code == 400
    assert "exists already" in response.content.decode()
    assert User.objects.filter(email__iexact="olivia@acme.test").count() == 1


def test_weak_password_and_bad_address_are_form_errors(client, db):
    weak = client.post("/signup/", _form(password="short"))
    assert weak.status_code == 400
    assert "too short" in weak.content.decode()
    common = client.post("/signup/", _form(password="password123"))
    assert common.status_code == 400
    assert "too common" in common.content.decode()
    bad = client.post("/signup/", _form(email="not-an-address"))
    assert bad.status_code == 400
    assert not User.objects.exists()


def test_huge_and_missing_fields_never_500(client, db):
    assert client.post("/signup/", {}).status_code == 400
    assert client.post("/signup/", _form(name="x" * 10_000, team="y" * 10_000)).status_code == 400
    assert not User.objects.exists()


def test_signed_in_user_is_sent_home(client, cast):
    client.force_login(cast.owner)
    assert client.get("/signup/")["Location"] == "/"
