"""Revision history pages: the list, a revision side by side with the one before or the current one
(escaped, as an accessible table), and restoring a revision as a new version."""

from __future__ import annotations

import re

from accounts.models import AuditEvent
from memory import store
from memory.models import Note, NoteRevision


def history(cast):
    """A note at version 3: v1 'Retries', v2 new body and tag, v3 new title."""
    principal = cast.principal(cast.member)
    note_id = store.create_note(
        principal,
        project="payments",
        title="Retries",
        body="Line one.\nRetries: three.\nLine three.",
        type="fact",
    )["note"]["id"]
    store.update_note(
        principal, note_id, body="Line one.\nRetries: <b>five</b>.\nLine three.", tags=["stripe"]
    )
    store.update_note(cast.principal(cast.owner), note_id, title="Webhook retries")
    return note_id


def url(note_id, suffix=""):
    return f"/projects/payments/notes/{note_id}/revisions/{suffix}"


def test_the_list_shows_every_version_newest_first(as_user, cast):
    note_id = history(cast)
    response = as_user(cast.viewer, cast.acme).get(url(note_id))
    assert response.status_code == 200
    html = response.content.decode()
    versions = re.findall(r">Version (\d)</a>", html)
    assert versions == ["3", "2", "1"]
    assert "olivia@acme.test" in html and "mia@acme.test" in html
    assert f'href="{url(note_id, "1/")}?against=current"' in html


def test_a_revision_against_the_one_before_is_an_escaped_side_by_side_diff(as_user, cast):
    note_id = history(cast)
    response = as_user(cast.member, cast.acme).get(url(note_id, "2/"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Version 1 → version 2" in html
    row = re.search(r'<tr class="diff-changed">(.*?)</tr>', html, re.S)
    assert row is not None
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(1), re.S)
    assert cells[0] == "2" and cells[2] == "2"
    assert cells[1].endswith("Retries: three.")
    assert cells[3].endswith("Retries: &lt;b&gt;five&lt;/b&gt;.")  # escaped, never markup
    assert '<th scope="col">Version 1</th>' in html and '<th scope="col">Version 2</th>' in html
    assert re.search(r'<th scope="row">Tags</th><td>none</td><td>stripe</td>', html)
    assert "<b>five</b>" not in html  # nowhere as markup: the rendered revision shows it as text too


def test_against_the_current_version(as_user, cast):
    note_id = history(cast)
    html = as_user(cast.member, cast.acme).get(url(note_id, "1/") + "?against=current").content.decode()
    assert "Version 1 → version 3" in html
    assert "Title" in html and "Webhook retries" in html
    current = as_user(cast.member, cast.acme).get(url(note_id, "3/") + "?against=current").content.decode()
    assert "This is the current version." in current


def test_the_first_version_has_nothing_before_it(as_user, cast):
    note_id = history(cast)
    html = as_user(cast.member, cast.acme).get(url(note_id, "1/")).content.decode()
    assert "This is the first version" in html


def test_a_missing_revision_is_not_found(as_user, cast):
    note_id = history(cast)
    client = as_user(cast.member, cast.acme)
    assert client.get(url(note_id, "9/")).status_code == 404
    assert client.get(url(note_id, "0/")).status_code == 404
    assert client.get(url(note_id, "9/restore/")).status_code == 404


def test_restore_a_revision_makes_a_new_version_and_is_audited(as_user, cast):
    note_id = history(cast)
    client = as_user(cast.member, cast.acme)
    confirm = client.get(url(note_id, "1/restore/"))
    assert confirm.status_code == 200 and "Restore version 1?" in confirm.content.decode()
    assert Note.objects.get(public_id=note_id).version == 3  # a GET restores nothing
    response = client.post(url(note_id, "1/restore/"), {"expected_version": "3"})
    assert response.status_code == 302 and response["Location"] == f"/projects/payments/notes/{note_id}/"
    note = Note.objects.get(public_id=note_id)
    assert (note.version, note.title, note.body, note.tags) == (
        4,
        "Retries",
        "Line one.\nRetries: three.\nLine three.",
        [],
    )
    assert NoteRevision.objects.filter(note=note, version=3, title="Webhook retries").exists()
    event = AuditEvent.objects.get(action="note.revision_restored", object_id=note_id)
    assert (event.actor_id, event.detail["restored"]) == (cast.member.pk, 1)
    assert "Version 1 restored as version 4." in client.get(response["Location"]).content.decode()


def test_a_stale_restore_changes_nothing(as_user, cast):
    note_id = history(cast)
    response = as_user(cast.member, cast.acme).post(url(note_id, "1/restore/"), {"expected_version": "2"})
    assert response.status_code == 302
    assert Note.objects.get(public_id=note_id).version == 3
    assert not AuditEvent.objects.filter(action="note.revision_restored").exists()


def test_a_restore_without_a_version_is_a_form_error(as_user, cast):
    note_id = history(cast)
    response = as_user(cast.member, cast.acme).post(url(note_id, "1/restore/"), {"expected_version": "three"})
    assert response.status_code == 400
    assert Note.objects.get(public_id=note_id).version == 3


def test_viewers_read_history_but_cannot_restore(as_user, cast):
    note_id = history(cast)
    client = as_user(cast.viewer, cast.acme)
    html = client.get(url(note_id, "1/")).content.decode()
    assert "/restore/" not in html
    assert client.get(url(note_id, "1/restore/")).status_code == 403
    assert client.post(url(note_id, "1/restore/"), {"expected_version": "3"}).status_code == 403
    assert Note.objects.get(public_id=note_id).version == 3


def test_outsiders_and_anonymous(client, as_user, cast):
    note_id = history(cast)
    anonymous = client.get(url(note_id))
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/login/")
    outsider = as_user(cast.outsider, cast.globex)
    for suffix in ("", "1/", "1/?against=current", "1/restore/"):
        assert outsider.get(url(note_id, suffix)).status_code == 404, suffix
    assert outsider.post(url(note_id, "1/restore/"), {"expected_version": "3"}).status_code == 404
    assert Note.objects.get(public_id=note_id).version == 3


def test_private_notes_history_stays_private(as_user, cast):
    principal = cast.principal(cast.member)
    private = store.create_note(principal, project="payments", title="Mine", body="v1", visibility="private")
    store.update_note(principal, private["note"]["id"], body="v2")
    owner = as_user(cast.owner, cast.acme)
    assert owner.get(url(private["note"]["id"])).status_code == 404
    assert owner.get(url(private["note"]["id"], "1/")).status_code == 404
