"""The signed-in home page: projects with note counts by type and status, open conflicts, the latest
changes and what agents wrote today, only ever of the session's team."""

from __future__ import annotations

from memory import store
from tests.mcp_gateway.state import save


def _html(as_user, user, team=None) -> str:
    response = as_user(user, team).get("/")
    assert response.status_code == 200
    return response.content.decode()


def test_anonymous_visitors_get_the_landing_page_not_the_dashboard(client, cast):
    html = client.get("/").content.decode()
    assert "Payments API" not in html and 'href="/login/"' in html


def test_projects_with_counts_by_type_and_status(as_user, cast):
    save(cast, "Use Postgres", "We use Postgres.", type="decision")
    save(cast, "Port", "8080", type="fact")
    save(cast, "Old", "x", type="fact", status="historical")
    html = _html(as_user, cast.viewer, cast.acme)
    assert 'href="/projects/payments/"' in html and 'href="/projects/website/"' in html
    assert 'href="/projects/payments/?type=fact">fact 2</a>' in html
    assert 'href="/projects/payments/?type=decision">decision 1</a>' in html
    assert 'href="/projects/payments/?status=historical">historical 1</a>' in html
    assert "Secret lab" not in html


def test_open_conflicts_are_counted_and_linked_to_the_queue(as_user, cast):
    html = _html(as_user, cast.member, cast.acme)
    assert "No open conflicts" in html and 'href="/conflicts/"' in html
    a = save(cast, "JWT", "We use JWTs.")
    b = save(cast, "Opaque", "We use opaque tokens.")
    store.relate_notes(cast.principal(cast.member), a, b, "contradicts")
    save(cast, "Disputed", "Maybe", status="disputed")
    html = _html(as_user, cast.member, cast.acme)
    assert "2 open conflicts" in html
    assert "1 disputed note," in html and "1 contradicting link." in html


def test_latest_changes_and_todays_agent_notes(as_user, cast):
    agent = cast.principal(cast.member).with_client("claude-code")
    note = store.create_note(agent, "payments", "Retry policy", "Retry 3 times.")["note"]["id"]
    store.update_note(cast.principal(cast.owner).with_client("web"), note, body="Retry 5 times.")
    html = _html(as_user, cast.viewer, cast.acme)
    assert f'href="/projects/payments/notes/{note}/">Retry policy</a>' in html
    assert "Olivia Owner" in html  # who made the latest change
    assert "1 new note since 00:00 UTC: <strong>claude-code</strong> 1" in html


def test_an_empty_team_keeps_the_next_steps(as_user, cast):
    html = _html(as_user, cast.outsider)
    assert "Secret lab" in html
    assert "create an API key" in html and "get_context" in html
    assert "Payments API" not in html


def test_viewers_are_not_offered_a_new_project(as_user, cast):
    assert 'href="/projects/new/"' not in _html(as_user, cast.viewer, cast.acme)
    assert 'href="/projects/new/"' in _html(as_user, cast.member, cast.acme)


def test_the_dashboard_makes_a_bounded_number_of_queries(as_user, cast, django_assert_max_num_queries):
    for n in range(30):
        save(cast, f"Note {n}", f"body {n}", type="fact" if n % 2 else "decision")
    client = as_user(cast.owner, cast.acme)
    client.get("/")  # warm the session
    with django_assert_max_num_queries(20):
        assert client.get("/").status_code == 200
