"""The note page: rendered, sanitised Markdown, metadata, links both ways, the supersession chain and
recent revisions; read-only for viewers, not found for anyone outside the note's scope."""

from __future__ import annotations

import re

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from memory import store
from memory.models import Note


def save(cast, title, body=None, who=None, project="payments", **fields):
    return store.create_note(
        cast.principal(who or cast.member), project=project, title=title, body=body or f"{title}.", **fields
    )["note"]["id"]


def page_of(client, note_id, slug="payments", suffix=""):
    return client.get(f"/projects/{slug}/notes/{note_id}/{suffix}")


def test_the_note_with_its_metadata(as_user, cast):
    note_id = save(
        cast,
        "Webhook retries",
        "Stripe retries **three** times.\n\n- backoff doubles",
        type="fact",
        tags=["stripe", "webhooks"],
        importance=0.8,
    )
    store.update_note(cast.principal(cast.owner).with_client("Claude Code"), note_id, status="pending")
    response = page_of(as_user(cast.viewer, cast.acme), note_id)
    assert response.status_code == 200
    html = response.content.decode()
    assert '<h1 id="note-title">Webhook retries</h1>' in html
    assert "<strong>three</strong>" in html and "<li>backoff doubles</li>" in html
    for shown in (
        "fact",
        "pending",
        "stripe",
        "webhooks",
        "0.8",
        "mia@acme.test",
        "olivia@acme.test",
        "Claude Code",
    ):
        assert shown in html, shown
    assert re.search(r"<dt>Version</dt><dd>2</dd>", html)
    assert 'href="/projects/payments/"' in html  # back to the project page


def test_script_in_a_note_is_neutralised(as_user, cast):
    note_id = save(
        cast,
        "<script>alert('title')</script>",
        "<script>alert('body')</script>\n\n[x](javascript:alert(1)) <img src=x onerror=alert(2)>",
    )
    html = page_of(as_user(cast.member, cast.acme), note_id).content.decode()
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(&#x27;title&#x27;)&lt;/script&gt;" in html
    assert 'href="javascript' not in html and "<img src=x" not in html


def test_links_both_ways(as_user, cast):
    a, b, c = save(cast, "Use idempotency keys"), save(cast, "Retries duplicate charges"), save(cast, "Old")
    store.relate_notes(cast.principal(cast.member), a, b, "depends_on")
    store.relate_notes(cast.principal(cast.member), c, a, "contradicts")
    client = as_user(cast.member, cast.acme)
    html = page_of(client, a).content.decode()
    assert re.search(
        rf'this note →</td><td>depends_on</td><td><a href="/projects/payments/notes/{b}/">', html
    )
    assert re.search(
        rf'→ this note</td><td>contradicts</td><td><a href="/projects/payments/notes/{c}/">', html
    )
    assert re.search(
        rf'→ this note</td><td>depends_on</td><td><a href="/projects/payments/notes/{a}/">',
        page_of(client, b).content.decode(),
    )


def test_the_supersession_chain_both_ways(as_user, cast):
    first = save(cast, "Sessions in cookies")
    second = store.remember(
        cast.principal(cast.member), "payments", "Sessions are JWTs now.", title="Sessions in JWT",
        supersedes=[first], force=True,
    )["note"]["id"]  # fmt: skip
    third = store.remember(
        cast.principal(cast.member), "payments", "Sessions are opaque tokens.", title="Sessions opaque",
        supersedes=[second], force=True,
    )["note"]["id"]  # fmt: skip
    html = page_of(as_user(cast.member, cast.acme), second).content.decode()
    replaced_by, replaced = html.split("<h3>Replaced by</h3>")[1].split("<h3>Replaced</h3>")
    assert f"/notes/{third}/" in replaced_by and f"/notes/{first}/" not in replaced_by
    assert f"/notes/{first}/" in replaced and "superseded" in replaced
    oldest = page_of(as_user(cast.member, cast.acme), first).content.decode()
    assert oldest.index(f"/notes/{second}/") < oldest.index(f"/notes/{third}/")


def test_recent_revisions_are_listed(as_user, cast):
    note_id = save(cast, "Draft")
    store.update_note(cast.principal(cast.member), note_id, title="Final")
    html = page_of(as_user(cast.member, cast.acme), note_id).content.decode()
    assert f'href="/projects/payments/notes/{note_id}/revisions/1/">Version 1</a>' in html
    assert "<td>Draft</td>" in html


def test_writers_see_actions_viewers_do_not(as_user, cast):
    note_id = save(cast, "Fact")
    member_html = page_of(as_user(cast.member, cast.acme), note_id).content.decode()
    for action in ("edit/", "delete/"):
        assert f'href="/projects/payments/notes/{note_id}/{action}"' in member_html
    viewer = Client()
    viewer.force_login(cast.viewer)
    viewer_html = page_of(viewer, note_id).content.decode()
    assert "edit/" not in viewer_html and "delete/" not in viewer_html
    assert f"/notes/{note_id}/revisions/" in viewer_html  # history is reading
    for suffix in ("edit/", "delete/"):
        assert page_of(viewer, note_id, suffix=suffix).status_code == 403


def test_a_deleted_note_says_so_and_offers_restore_to_writers(as_user, cast):
    note_id = save(cast, "Wrong idea")
    store.delete_note(cast.principal(cast.member), note_id, reason="it was wrong")
    html = page_of(as_user(cast.owner, cast.acme), note_id).content.decode()
    assert "This note is deleted" in html and "it was wrong" in html
    assert f'href="/projects/payments/notes/{note_id}/restore/"' in html
    assert f"/notes/{note_id}/edit/" not in html
    viewer = Client()
    viewer.force_login(cast.viewer)
    viewer_html = page_of(viewer, note_id).content.decode()
    assert "This note is deleted" in viewer_html and "/restore/" not in viewer_html


def test_anonymous_is_sent_to_sign_in(client, cast):
    note_id = save(cast, "Fact")
    response = page_of(client, note_id)
    assert response.status_code == 302 and response["Location"].startswith("/login/?next=")


def test_outside_the_note_scope_is_not_found(as_user, cast):
    team_note = save(cast, "Team fact")
    private = save(cast, "Mia's own", visibility="private")
    lab_note = save(cast, "Globex secret", who=cast.outsider, project="lab")
    outsider = as_user(cast.outsider, cast.globex)
    assert page_of(outsider, team_note).status_code == 404
    assert page_of(outsider, team_note, slug="lab").status_code == 404
    owner = Client()
    owner.force_login(cast.owner)
    assert page_of(owner, private).status_code == 404
    assert page_of(owner, lab_note, slug="lab").status_code == 404
    assert page_of(owner, "not-an-id").status_code == 404
    assert page_of(owner, "n_DoesNotExist0000").status_code == 404
    assert "Globex secret" not in page_of(owner, lab_note, slug="lab").content.decode()


def test_a_stale_project_slug_redirects_to_the_note_s_own(as_user, cast):
    note_id = save(cast, "Fact")
    response = page_of(as_user(cast.member, cast.acme), note_id, slug="website")
    assert response.status_code == 302 and response["Location"] == f"/projects/payments/notes/{note_id}/"


def test_reading_the_page_writes_nothing(as_user, cast):
    note_id = save(cast, "Fact")
    before = Note.objects.values().get(public_id=note_id)
    page_of(as_user(cast.viewer, cast.acme), note_id)
    assert Note.objects.values().get(public_id=note_id) == before


def test_the_page_s_queries_do_not_grow_with_links_and_revisions(as_user, cast):
    client = as_user(cast.member, cast.acme)
    principal = cast.principal(cast.member)

    def queries(links: int, edits: int) -> int:
        note_id = save(cast, f"Hub {links}")
        for n in range(links):
            other = save(cast, f"Spoke {links}-{n}")
            store.relate_notes(principal, note_id, other, "relates_to")
            store.relate_notes(principal, other, note_id, "depends_on")
        for n in range(edits):
            store.update_note(principal, note_id, body=f"Edit {n}.")
        with CaptureQueriesContext(connection) as captured:
            assert page_of(client, note_id).status_code == 200
        return len(captured.captured_queries)

    assert queries(1, 1) == queries(4, 3)
