"""Team admin pages: screening rules and the audit log for owners and admins (the store's 403 for
everyone else), usage against the plan's caps for the whole team."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import AuditEvent
from memory import store
from memory.models import ScreeningRule
from tests.mcp_gateway.state import save

# ------------------------------------------------------------------------------------------ screening


def test_owners_add_and_delete_patterns_and_allowed_values(as_user, cast):
    client = as_user(cast.owner, cast.acme)
    added = client.post(
        "/team/screening/", {"kind": "pattern", "name": "billing ids", "value": "ACME-[0-9]{6}"}
    )
    assert added.status_code == 302 and added["Location"] == "/team/screening/"
    client.post("/team/screening/", {"kind": "allow", "name": "test card", "value": "4242424242424242"})
    html = client.get("/team/screening/").content.decode()
    assert "billing ids" in html and "<code>ACME-[0-9]{6}</code>" in html
    assert "4242…(16 chars)" in html and "4242424242424242" not in html  # allowed values only as a hint
    assert "added." in html
    # The new pattern screens every write now.
    with pytest.raises(Exception, match="Refused"):
        store.create_note(store_principal(cast), "payments", "t", "Invoice ACME-123456 is late")

    rule = ScreeningRule.objects.get(kind="pattern")
    deleted = client.post("/team/screening/", {"delete": rule.public_id})
    assert deleted.status_code == 302
    assert not ScreeningRule.objects.filter(pk=rule.pk).exists()
    assert AuditEvent.objects.filter(action="screening.rule_deleted", actor=cast.owner).exists()


def store_principal(cast):
    return cast.principal(cast.member)


def test_bad_rules_are_form_errors(as_user, cast):
    client = as_user(cast.owner, cast.acme)
    bad_regex = client.post("/team/screening/", {"kind": "pattern", "name": "broken", "value": "([a-z"})
    assert bad_regex.status_code == 400 and 'class="error"' in bad_regex.content.decode()
    empty = client.post("/team/screening/", {"kind": "pattern", "name": "", "value": ""})
    assert empty.status_code == 400 and "This field is required." in empty.content.decode()
    secret = client.post(
        "/team/screening/", {"kind": "pattern", "name": "oops", "value": "sk_live_4eC39HqLyjWDarjtT1zdp7dc"}
    )
    assert secret.status_code == 400 and "Refused:" in secret.content.decode()
    assert client.post("/team/screening/", {"delete": "sr_nothing"}).status_code == 404
    assert not ScreeningRule.objects.exists()


def test_members_and_viewers_get_403_and_change_nothing(as_user, cast):
    rule = ScreeningRule.objects.create(team=cast.acme, kind="pattern", name="kept", value="KEEP-[0-9]+")
    for user in (cast.member, cast.viewer):
        client = as_user(user, cast.acme)
        assert client.get("/team/screening/").status_code == 403
        assert (
            client.post("/team/screening/", {"kind": "pattern", "name": "x", "value": "X-[0-9]+"}).status_code
            == 403
        )
        assert client.post("/team/screening/", {"delete": rule.public_id}).status_code == 403
    assert list(ScreeningRule.objects.values_list("name", flat=True)) == ["kept"]


def test_another_teams_rule_is_not_found(as_user, cast):
    theirs = ScreeningRule.objects.create(team=cast.globex, kind="pattern", name="theirs", value="GLX-[0-9]+")
    client = as_user(cast.owner, cast.acme)
    assert "theirs" not in client.get("/team/screening/").content.decode()
    assert client.post("/team/screening/", {"delete": theirs.public_id}).status_code == 404
    assert ScreeningRule.objects.filter(pk=theirs.pk).exists()


# ------------------------------------------------------------------------------------------ audit log


@pytest.fixture
def history(cast) -> None:
    AuditEvent.objects.all().delete()  # the cast's own set-up events
    save(cast, "Mia's note", "in payments", user=cast.member)
    save(cast, "Olivia's note", "in website", user=cast.owner, project="website")
    AuditEvent.objects.create(
        team=cast.acme, actor=cast.owner, action="old.event", created_at=timezone.now() - timedelta(days=40)
    )
    AuditEvent.objects.create(
        team=cast.globex, actor=cast.outsider, action="note.created", project_slug="lab"
    )


def rows(html: str) -> int:
    return html.split("<tbody>", 1)[1].split("</tbody>", 1)[0].count("<tr>") if "<tbody>" in html else 0


def test_the_audit_log_with_filters(as_user, cast, history):
    client = as_user(cast.owner, cast.acme)
    everything = client.get("/team/audit/").content.decode()
    assert rows(everything) == AuditEvent.objects.filter(team=cast.acme).count() == 3
    assert "<td>lab</td>" not in everything and "oscar@globex.test" not in everything

    by_actor = client.get("/team/audit/", {"actor": "mia@acme.test"}).content.decode()
    assert rows(by_actor) == 1 and "in payments" not in by_actor  # never the note text
    by_project = client.get("/team/audit/", {"project": "website"}).content.decode()
    assert rows(by_project) == 1 and "olivia@acme.test" in by_project
    by_action = client.get("/team/audit/", {"action": "old.event"}).content.decode()
    assert rows(by_action) == 1
    today = timezone.now().date()
    recent = client.get(
        "/team/audit/", {"since": (today - timedelta(days=1)).isoformat(), "until": today.isoformat()}
    )
    assert rows(recent.content.decode()) == 2
    old = client.get("/team/audit/", {"until": (today - timedelta(days=30)).isoformat()}).content.decode()
    assert rows(old) == 1 and "old.event" in old


def test_the_audit_log_pages(as_user, cast, history, monkeypatch):
    monkeypatch.setattr("web.views.team_admin.AUDIT_PAGE", 2)
    client = as_user(cast.owner, cast.acme)
    first = client.get("/team/audit/").content.decode()
    assert rows(first) == 2 and 'id="older"' in first
    older = first.split('id="older" href="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    second = client.get(older).content.decode()
    assert rows(second) == 1 and 'id="older"' not in second
    both = first + second  # every event once: two note.created, one old.event
    assert both.count("<code>note.created</code>") == 2 and both.count("<code>old.event</code>") == 1
    filtered = client.get("/team/audit/", {"project": "payments"}).content.decode()
    assert rows(filtered) == 1


def test_bad_filters_are_form_errors(as_user, cast, history):
    client = as_user(cast.owner, cast.acme)
    for query in (
        {"since": "not a date"},
        {"since": "2026-02-01", "until": "2026-01-01"},
        {"actor": "oscar@globex.test"},
        {"project": "lab"},
        {"before": "ev_doesnotexist"},
    ):
        response = client.get("/team/audit/", query)
        assert response.status_code == 400, query
        assert (
            'class="error"' in response.content.decode() or 'class="alert error"' in response.content.decode()
        )
    assert client.get("/team/audit/", {"until": "9999-12-31"}).status_code == 200


def test_only_owners_and_admins_read_the_audit_log(as_user, client, cast, history):
    for user in (cast.member, cast.viewer):
        assert as_user(user, cast.acme).get("/team/audit/").status_code == 403
        assert as_user(user, cast.acme).get("/team/audit/", {"since": "nonsense"}).status_code == 403
    client.logout()
    assert client.get("/team/audit/")["Location"].startswith("/login/")


# ---------------------------------------------------------------------------------------------- usage


def test_usage_against_the_caps_for_everyone_in_the_team(as_user, client, cast):
    save(cast, "One", "note")
    for user in (cast.owner, cast.member, cast.viewer):
        html = as_user(user, cast.acme).get("/team/usage/").content.decode()
        assert 'id="usage-notes"' in html and 'role="progressbar"' in html
        assert f'aria-valuenow="1" aria-valuemin="0" aria-valuemax="{cast.plan.max_notes}"' in html
        assert f'aria-valuenow="2" aria-valuemin="0" aria-valuemax="{cast.plan.max_projects}"' in html
    outsider = as_user(cast.outsider, cast.globex).get("/team/usage/").content.decode()
    assert 'aria-valuenow="0" aria-valuemin="0"' in outsider  # their own team's usage, not acme's
    client.logout()
    assert client.get("/team/usage/")["Location"].startswith("/login/")


def test_the_navigation_shows_admin_pages_to_managers_only(as_user, cast):
    owner = as_user(cast.owner, cast.acme).get("/team/usage/").content.decode()
    assert 'href="/team/screening/"' in owner and 'href="/team/audit/"' in owner
    assert 'href="/team/usage/" aria-current="page"' in owner
    member = as_user(cast.member, cast.acme).get("/team/usage/").content.decode()
    assert 'href="/team/screening/"' not in member and 'href="/team/usage/"' in member
