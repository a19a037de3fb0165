"""Staff set a team's plan in the admin by the team's name or slug, and see its plan history."""

from __future__ import annotations

import json

import pytest

from accounts.models import User
from billing.models import Plan, Subscription


@pytest.fixture
def staff_client(client, db):
    staff = User.objects.create_superuser("staff@knownbase.test", "a long staff password")
    client.force_login(staff)
    return client


def test_the_team_is_found_by_name_or_slug_not_by_id(staff_client, cast):
    page = staff_client.get("/admin/billing/subscription/add/").content.decode()
    assert "admin-autocomplete" in page and 'name="team"' in page
    for term in ("Acme", "acme", "acm"):
        found = staff_client.get(
            "/admin/autocomplete/",
            {"app_label": "billing", "model_name": "subscription", "field_name": "team", "term": term},
        )
        assert found.status_code == 200
        assert [r["text"] for r in json.loads(found.content)["results"]] == [str(cast.acme)], term


def test_a_plan_set_in_the_admin_shows_in_the_teams_plan_history(staff_client, cast):
    subscription = Subscription.objects.get(team=cast.acme)
    team_plan = Plan.objects.get(code="team")
    form = {"team": cast.acme.pk, "plan": team_plan.pk}
    response = staff_client.post(f"/admin/billing/subscription/{subscription.pk}/change/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Subscription.objects.get(team=cast.acme).plan == team_plan
    page = staff_client.get(f"/admin/billing/subscription/{subscription.pk}/change/").content.decode()
    assert "Plan history" in page and "staff@knownbase.test" in page
    assert "<td>developer</td><td>team</td>" in page
