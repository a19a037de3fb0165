"""Project settings (name, slug, summary, agent instructions, default context budget), creating a
project, and the context preview that shows exactly what get_context returns."""

from __future__ import annotations

import html as html_lib
import json

import pytest

from accounts.models import AuditEvent
from memory import store
from memory.models import Project
from tests.mcp_gateway.state import save

SETTINGS = "/projects/payments/settings/"
PREVIEW = "/projects/payments/context/"


def _form(**changes):
    return {
        "name": "Payments API",
        "slug": "payments",
        "summary": "",
        "agent_instructions": "",
        "default_context_budget": "",
        **changes,
    }


# ------------------------------------------------------------------------------------------ settings


def test_anonymous_goes_to_login(client, cast):
    for url in (SETTINGS, PREVIEW, "/projects/new/"):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_outsider_gets_404(as_user, cast):
    client = as_user(cast.outsider)
    assert client.get(SETTINGS).status_code == 404
    assert client.post(SETTINGS, _form(summary="mine now")).status_code == 404
    assert client.get(PREVIEW).status_code == 404
    assert Project.objects.get(pk=cast.payments.pk).summary == ""


def test_viewers_read_the_settings_but_cannot_change_them(as_user, cast):
    store.update_project(cast.principal(cast.owner), "payments", summary="Card payments.")
    client = as_user(cast.viewer, cast.acme)
    html = client.get(SETTINGS).content.decode()
    assert "Card payments." in html and "disabled" in html and "Save settings" not in html
    assert client.post(SETTINGS, _form(summary="Viewer was here")).status_code == 403
    assert Project.objects.get(pk=cast.payments.pk).summary == "Card payments."


def test_members_save_only_what_changed_through_the_store(as_user, cast):
    client = as_user(cast.member, cast.acme)
    response = client.post(
        SETTINGS,
        _form(
            summary="Card payments.", agent_instructions="Amounts in cents.", default_context_budget="1500"
        ),
    )
    assert response.status_code == 302 and response["Location"] == SETTINGS
    project = Project.objects.get(pk=cast.payments.pk)
    assert (project.summary, project.agent_instructions, project.default_context_budget) == (
        "Card payments.",
        "Amounts in cents.",
        1500,
    )
    event = AuditEvent.objects.get(action="project.updated")
    assert event.detail["fields"] == ["summary", "agent_instructions", "default_context_budget"]
    assert event.client == "web"
    # Emptying the budget clears it.
    client.post(SETTINGS, _form(summary="Card payments.", agent_instructions="Amounts in cents."))
    assert Project.objects.get(pk=cast.payments.pk).default_context_budget is None


def test_browser_line_endings_in_the_texts_are_not_a_change(as_user, cast):
    Project.objects.filter(pk=cast.payments.pk).update(summary="Cards.\nRefunds.")
    client = as_user(cast.member, cast.acme)
    response = client.post(SETTINGS, _form(summary="Cards.\r\nRefunds.", agent_instructions="Cents.\r\nUTC."))
    assert response.status_code == 302
    project = Project.objects.get(pk=cast.payments.pk)
    assert (project.summary, project.agent_instructions) == ("Cards.\nRefunds.", "Cents.\nUTC.")
    assert AuditEvent.objects.get(action="project.updated").detail["fields"] == ["agent_instructions"]


def test_renaming_the_slug_moves_the_page(as_user, cast):
    response = as_user(cast.member, cast.acme).post(SETTINGS, _form(slug="billing"))
    assert response["Location"] == "/projects/billing/settings/"
    assert Project.objects.get(pk=cast.payments.pk).slug == "billing"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": ""}, "This field is required."),
        ({"slug": "Not A Slug"}, "lowercase letters, digits and hyphens"),
        ({"slug": "website"}, "exists already"),
        ({"default_context_budget": "50"}, "must be 0 (none) or from 100"),
        ({"default_context_budget": "lots"}, "Enter a whole number."),
        ({"default_context_budget": "60000"}, "less than or equal to 50000"),
        ({"summary": "x" * 20_001}, "at most 20000 characters"),
    ],
)
def test_bad_input_is_a_form_error(as_user, cast, changes, message):
    response = as_user(cast.member, cast.acme).post(SETTINGS, _form(**changes))
    assert response.status_code == 400
    assert message in response.content.decode()
    project = Project.objects.get(pk=cast.payments.pk)
    assert (project.slug, project.default_context_budget) == ("payments", None)


def test_a_secret_in_the_instructions_is_refused(as_user, cast):
    response = as_user(cast.member, cast.acme).post(
        SETTINGS, _form(agent_instructions="Deploy with ghp_" + "a1B2" * 9)
    )
    assert response.status_code == 400
    assert Project.objects.get(pk=cast.payments.pk).agent_instructions == ""
    assert AuditEvent.objects.filter(action="write.screened").exists()


# ------------------------------------------------------------------------------------------- create


def test_create_a_project(as_user, cast):
    client = as_user(cast.member, cast.acme)
    assert client.get("/projects/new/").status_code == 200
    response = client.post("/projects/new/", {"name": "Mobile app", "summary": "iOS and Android."})
    assert response.status_code == 302 and response["Location"] == "/projects/mobile-app/"
    project = Project.objects.get(team=cast.acme, slug="mobile-app")
    assert project.summary == "iOS and Android."
    assert AuditEvent.objects.filter(action="project.created", object_id=project.public_id).exists()


def test_viewers_cannot_create_projects(as_user, cast):
    client = as_user(cast.viewer, cast.acme)
    assert client.get("/projects/new/").status_code == 403
    assert client.post("/projects/new/", {"name": "Nope"}).status_code == 403
    assert not Project.objects.filter(name="Nope").exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [({"name": ""}, "This field is required."), ({"name": "Dup", "slug": "payments"}, "exists already")],
)
def test_create_refuses_bad_input_with_form_errors(as_user, cast, data, message):
    response = as_user(cast.member, cast.acme).post("/projects/new/", data)
    assert response.status_code == 400 and message in response.content.decode()
    assert Project.objects.filter(team=cast.acme).count() == 2


def test_create_past_the_plan_s_project_cap_is_402_like_the_rest_api(as_user, cast):
    cast.plan.max_projects = Project.objects.filter(team=cast.acme).count()
    cast.plan.save()
    response = as_user(cast.member, cast.acme).post("/projects/new/", {"name": "Mobile app"})
    assert response.status_code == 402
    assert f"allows {cast.plan.max_projects} projects" in response.content.decode()
    assert not Project.objects.filter(name="Mobile app").exists()


# ----------------------------------------------------------------------------------- context preview


def test_preview_shows_exactly_what_get_context_returns(as_user, cast):
    save(cast, "Amounts in cents", "Never use floats for money.", type="constraint")
    save(cast, "Use Postgres", "We use Postgres.", type="decision")
    client = as_user(cast.viewer, cast.acme)
    html = client.get(PREVIEW).content.decode()
    assert "What the agent sees" not in html  # nothing asked yet
    response = client.get(PREVIEW, {"max_tokens": "400", "detail": "balanced"})
    html = response.content.decode()
    assert response.status_code == 200
    expected = store.get_context(cast.principal(cast.viewer), "payments", max_tokens=400)
    raw = html.split("<pre><code>")[1].split("</code></pre>")[0]
    assert json.loads(html_lib.unescape(raw)) == expected
    assert "Budget <strong>400</strong>" in html
    assert "Amounts in cents" in html and "Use Postgres" in html


def test_preview_uses_the_project_default_budget(as_user, cast):
    store.update_project(cast.principal(cast.owner), "payments", default_context_budget=700)
    html = as_user(cast.member, cast.acme).get(PREVIEW, {"detail": "balanced"}).content.decode()
    assert "Budget <strong>700</strong>" in html


@pytest.mark.parametrize(
    ("params", "message"),
    [({"max_tokens": "10"}, "greater than or equal to 100"), ({"detail": "huge"}, "Select a valid choice")],
)
def test_preview_bad_input_is_a_form_error(as_user, cast, params, message):
    response = as_user(cast.member, cast.acme).get(PREVIEW, params)
    assert response.status_code == 400 and message in response.content.decode()
