"""Every signed-in page shows the team's plan, links billing, and warns at 80 % and at 100 % of a
cap with the way to raise it on this server."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from memory import store
from memory.models import Note
from tests.mcp_gateway.state import save


def notes_used(cast) -> int:
    for n in range(4):
        save(cast, f"Note {n}", f"Body {n}")
    return Note.objects.filter(team=cast.acme, deleted_at=None).count()


def set_note_cap(cast, limit: int) -> None:
    cast.plan.max_notes = limit
    cast.plan.max_members = 10  # the cast's three members would otherwise fill the Developer plan
    cast.plan.save()


def test_no_banner_while_every_cap_has_room_but_the_plan_and_billing_show(client, cast):
    set_note_cap(cast, 10_000)
    client.force_login(cast.member)
    html = client.get("/").content.decode()
    assert 'id="cap-warning"' not in html
    assert '<span class="badge" id="team-plan"' in html and "Developer plan" in html
    assert 'href="/billing/"' in html


def test_at_80_percent_the_banner_warns_and_says_who_raises_it(client, cast, settings):
    settings.STRIPE_SECRET_KEY = ""
    used = notes_used(cast)
    set_note_cap(cast, used * 5 // 4)  # 4 notes of 5: 80 % of the cap
    client.force_login(cast.member)
    html = client.get("/keys/").content.decode()
    assert 'id="cap-warning"' in html
    assert f"This team uses {used} of the {cast.plan.max_notes} notes its Developer plan allows." in html
    assert "ask this server&#x27;s staff to raise the plan" in html


def test_at_the_cap_the_banner_says_writes_are_refused_and_links_checkout(client, cast, settings):
    settings.STRIPE_SECRET_KEY = "sk_test_configured"
    set_note_cap(cast, notes_used(cast))
    client.force_login(cast.owner)
    html = client.get("/").content.decode()
    assert "reached its Developer plan's limit" in html and "new ones are refused" in html
    assert "upgrade at http" in html and "/billing/" in html


def test_the_standing_costs_two_queries(cast):
    principal = cast.principal(cast.member)
    with CaptureQueriesContext(connection) as captured:
        standing = store.cap_standing(principal)
    assert standing["plan"] == "Developer" and len(captured.captured_queries) <= 3
