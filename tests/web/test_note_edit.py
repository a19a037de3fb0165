"""Editing a note in the browser: through update_note with the version the form was loaded at; a stale
form never overwrites, it shows the newer version and the difference. Delete and restore with a
confirmation. Viewers get 403, outsiders 404, bad input form errors."""

from __future__ import annotations

import re

from accounts.models import AuditEvent
from billing.models import Plan
from memory import store
from memory.models import Note, NoteRevision

SECRET = "AKIAZ7QH3M2XLW5RT4NB"
TAG_SECRET = "ghp_16c7e42f292c6912e7710c838347ae178b4a"  # a tag is lowercase: a GitHub token's shape fits


def save(cast, title="Retries", body="Stripe retries three times.", who=None, **fields):
    return store.create_note(
        cast.principal(who or cast.member), project="payments", title=title, body=body, type="fact", **fields
    )["note"]["id"]


def form(note_id, **changes):
    note = Note.objects.get(public_id=note_id)
    data = {
        "title": note.title,
        "body": note.body,
        "type": note.type,
        "status": note.status,
        "tags": ", ".join(note.tags),
        "importance": str(note.importance),
        "visibility": note.visibility,
        "expected_version": str(note.version),
    }
    return {**data, **changes}


def edit_url(note_id):
    return f"/projects/payments/notes/{note_id}/edit/"


def test_browser_line_endings_are_stored_as_the_tools_write_them(as_user, cast):
    """Browsers send a textarea's newlines as CRLF: stored as sent, a web edit would change every
    line of an agent's note, and saving an untouched form would make a new version."""
    note_id = save(cast, body="Stripe retries.\n\nThree times.")
    client = as_user(cast.member, cast.acme)
    untouched = client.post(edit_url(note_id), form(note_id, body="Stripe retries.\r\n\r\nThree times."))
    assert untouched.status_code == 302
    assert Note.objects.get(public_id=note_id).version == 1
    assert "Nothing changed." in client.get(untouched["Location"]).content.decode()

    client.post(edit_url(note_id), form(note_id, body="Stripe retries.\r\n\r\nFive times.\r\n"))
    note = Note.objects.get(public_id=note_id)
    assert (note.version, note.body) == (2, "Stripe retries.\n\nFive times.")


def test_the_form_is_filled_with_the_note(as_user, cast):
    note_id = save(cast, tags=["stripe", "webhooks"])
    html = as_user(cast.member, cast.acme).get(edit_url(note_id)).content.decode()
    assert 'name="expected_version" value="1"' in html
    assert 'value="stripe, webhooks"' in html
    assert "Stripe retries three times.</textarea>" in html
    assert re.search(r'<option value="fact" selected>', html)


def test_an_edit_saves_a_new_version_keeps_a_revision_and_is_audited(as_user, cast):
    note_id = save(cast)
    response = as_user(cast.member, cast.acme).post(
        edit_url(note_id), form(note_id, body="Stripe retries five times.", tags="stripe, retries")
    )
    assert response.status_code == 302 and response["Location"] == f"/projects/payments/notes/{note_id}/"
    note = Note.objects.get(public_id=note_id)
    assert (note.body, note.tags, note.version, note.last_edited_client) == (
        "Stripe retries five times.",
        ["stripe", "retries"],
        2,
        "web",
    )
    assert NoteRevision.objects.get(note=note).body == "Stripe retries three times."
    event = AuditEvent.objects.get(action="note.updated", object_id=note_id)
    assert event.detail["fields"] == ["body", "tags"]  # only what changed
    assert event.actor_id == cast.member.pk


def test_a_stale_form_shows_the_newer_version_and_the_diff_and_keeps_it(as_user, cast):
    note_id = save(cast, body="Line one.\nRetries: three.\nLine three.")
    stale = form(note_id, body="Line one.\nRetries: four.\nLine three.")  # loaded at version 1
    store.update_note(
        cast.principal(cast.owner).with_client("Cursor"),
        note_id,
        body="Line one.\nRetries: five.\nLine three.",
    )
    client = as_user(cast.member, cast.acme)
    response = client.post(edit_url(note_id), stale)
    assert response.status_code == 409
    html = response.content.decode()
    assert "Someone else saved this note first" in html
    assert "olivia@acme.test" in html and "Cursor" in html
    assert "<p>Line one.\nRetries: five.\nLine three.</p>" in html  # the newer version, rendered
    assert re.search(r'class="diff-changed">.*?Retries: five\..*?Retries: four\.', html, re.S)
    assert 'name="expected_version" value="2"' in html  # resubmitting targets the new version
    assert "Retries: four.\nLine three.</textarea>" in html  # the user's text is kept in the form
    assert Note.objects.get(public_id=note_id).body == "Line one.\nRetries: five.\nLine three."
    assert not AuditEvent.objects.filter(action="note.updated", actor_id=cast.member.pk).exists()

    resubmitted = client.post(edit_url(note_id), {**stale, "expected_version": "2"})
    assert resubmitted.status_code == 302
    note = Note.objects.get(public_id=note_id)
    assert (note.body, note.version) == ("Line one.\nRetries: four.\nLine three.", 3)


def test_a_secret_is_refused_on_the_field_that_holds_it(as_user, cast):
    note_id = save(cast)
    client = as_user(cast.member, cast.acme)
    response = client.post(edit_url(note_id), form(note_id, body=f"The key is {SECRET}."))
    assert response.status_code == 400
    html = response.content.decode()
    assert re.search(r'id="id_body_error1">Refused: `body`', html)
    assert SECRET not in html.split("<textarea")[0]  # not echoed in the message
    tagged = client.post(edit_url(note_id), form(note_id, tags=f"ok, {TAG_SECRET}"))
    assert tagged.status_code == 400
    assert re.search(r'id="id_tags_error1">Refused: `tags', tagged.content.decode())
    assert Note.objects.get(public_id=note_id).version == 1
    assert AuditEvent.objects.filter(action="write.screened").count() == 2


def test_bad_input_is_a_form_error_not_a_500(as_user, cast):
    note_id = save(cast)
    client = as_user(cast.member, cast.acme)
    cases = {
        "importance": form(note_id, importance="7"),
        "type": form(note_id, type="gossip"),
        "title": form(note_id, title=""),
        "expected_version": form(note_id, expected_version="x"),
    }
    for field, data in cases.items():
        response = client.post(edit_url(note_id), data)
        assert response.status_code == 400, field
        assert f'id="id_{field}_error1"' in response.content.decode() or field == "expected_version"
    bad_tag = client.post(edit_url(note_id), form(note_id, tags="fine, no way!"))
    assert bad_tag.status_code == 400
    assert "Tag &#x27;no way!&#x27; is not valid" in bad_tag.content.decode()  # the store's own message
    blank_body = client.post(edit_url(note_id), form(note_id, body="   "))
    assert blank_body.status_code == 400 and 'id="id_body_error1"' in blank_body.content.decode()
    assert Note.objects.get(public_id=note_id).version == 1


def test_nothing_changed_writes_nothing(as_user, cast):
    note_id = save(cast)
    response = as_user(cast.member, cast.acme).post(edit_url(note_id), form(note_id))
    assert response.status_code == 302
    assert Note.objects.get(public_id=note_id).version == 1
    assert not AuditEvent.objects.filter(action="note.updated").exists()


def test_only_the_author_may_change_visibility(as_user, cast):
    note_id = save(cast)
    owner = as_user(cast.owner, cast.acme)
    assert re.search(
        r'<select name="visibility"[^>]* disabled', owner.get(edit_url(note_id)).content.decode()
    )
    owner.post(edit_url(note_id), form(note_id, visibility="private", title="Retries, owner's edit"))
    note = Note.objects.get(public_id=note_id)
    assert (note.visibility, note.title) == ("team", "Retries, owner's edit")
    as_user(cast.member, cast.acme).post(edit_url(note_id), form(note_id, visibility="private"))
    assert Note.objects.get(public_id=note_id).visibility == "private"


def test_viewers_cannot_edit(as_user, cast):
    note_id = save(cast)
    client = as_user(cast.viewer, cast.acme)
    assert client.get(edit_url(note_id)).status_code == 403
    assert client.post(edit_url(note_id), form(note_id, body="Viewer was here.")).status_code == 403
    assert Note.objects.get(public_id=note_id).version == 1


def test_outsiders_and_anonymous_cannot_edit(client, as_user, cast):
    note_id = save(cast)
    anonymous = client.post(edit_url(note_id), form(note_id, body="Anonymous."))
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/login/")
    outsider = as_user(cast.outsider, cast.globex)
    assert outsider.get(edit_url(note_id)).status_code == 404
    assert outsider.post(edit_url(note_id), form(note_id, body="Oscar was here.")).status_code == 404
    private = save(cast, visibility="private")
    owner = as_user(cast.owner, cast.acme)
    assert owner.post(edit_url(private), form(private, body="Peeked.")).status_code == 404
    assert Note.objects.get(public_id=note_id).version == 1
    assert Note.objects.get(public_id=private).body == "Stripe retries three times."


def test_delete_with_confirmation_then_restore(as_user, cast):
    note_id = save(cast)
    client = as_user(cast.member, cast.acme)
    confirm = client.get(f"/projects/payments/notes/{note_id}/delete/")
    assert confirm.status_code == 200 and "Delete this note?" in confirm.content.decode()
    assert Note.objects.get(public_id=note_id).deleted_at is None  # a GET never deletes
    response = client.post(
        f"/projects/payments/notes/{note_id}/delete/", {"reason": "duplicate", "expected_version": "1"}
    )
    assert response.status_code == 302
    note = Note.objects.get(public_id=note_id)
    assert note.deleted_at is not None and note.delete_reason == "duplicate"
    assert AuditEvent.objects.filter(
        action="note.deleted", object_id=note_id, actor_id=cast.member.pk
    ).exists()
    assert "This note is deleted" in client.get(response["Location"]).content.decode()
    assert client.get(edit_url(note_id)).status_code == 302  # a deleted note is not edited: its page says so

    assert client.get(f"/projects/payments/notes/{note_id}/restore/").status_code == 200
    restored = client.post(f"/projects/payments/notes/{note_id}/restore/")
    assert restored.status_code == 302
    assert Note.objects.get(public_id=note_id).deleted_at is None
    assert AuditEvent.objects.filter(action="note.restored", object_id=note_id).exists()


def test_a_stale_delete_is_refused(as_user, cast):
    note_id = save(cast)
    store.update_note(cast.principal(cast.owner), note_id, body="Changed meanwhile.")
    response = as_user(cast.member, cast.acme).post(
        f"/projects/payments/notes/{note_id}/delete/", {"reason": "", "expected_version": "1"}
    )
    assert response.status_code == 409
    assert "changed since you opened this page" in response.content.decode()
    assert Note.objects.get(public_id=note_id).deleted_at is None


def test_viewers_cannot_delete_or_restore(as_user, cast):
    note_id, gone = save(cast), save(cast, title="Gone")
    store.delete_note(cast.principal(cast.member), gone)
    client = as_user(cast.viewer, cast.acme)
    assert client.get(f"/projects/payments/notes/{note_id}/delete/").status_code == 403
    assert (
        client.post(f"/projects/payments/notes/{note_id}/delete/", {"expected_version": "1"}).status_code
        == 403
    )
    assert client.post(f"/projects/payments/notes/{gone}/restore/").status_code == 403
    assert Note.objects.get(public_id=note_id).deleted_at is None
    assert Note.objects.get(public_id=gone).deleted_at is not None


def test_outsiders_cannot_delete_or_restore(as_user, cast):
    note_id, gone = save(cast), save(cast, title="Gone")
    store.delete_note(cast.principal(cast.member), gone)
    client = as_user(cast.outsider, cast.globex)
    assert (
        client.post(f"/projects/payments/notes/{note_id}/delete/", {"expected_version": "1"}).status_code
        == 404
    )
    assert client.post(f"/projects/payments/notes/{gone}/restore/").status_code == 404
    assert client.get(f"/projects/payments/notes/{gone}/").status_code == 404
    assert Note.objects.get(public_id=note_id).deleted_at is None
    assert Note.objects.get(public_id=gone).deleted_at is not None


def test_restore_past_the_plan_s_note_cap_is_refused_clearly(as_user, cast):
    keep, gone = save(cast), save(cast, title="Gone")
    store.delete_note(cast.principal(cast.member), gone)
    Plan.objects.filter(pk=cast.plan.pk).update(max_notes=1)  # `keep` fills the cap
    response = as_user(cast.member, cast.acme).post(f"/projects/payments/notes/{gone}/restore/")
    assert response.status_code == 402  # the REST API's status for a plan limit
    assert "alert error" in response.content.decode()
    assert Note.objects.get(public_id=gone).deleted_at is not None
    assert Note.objects.get(public_id=keep).deleted_at is None


def test_saving_a_note_deleted_meanwhile_says_so(as_user, cast):
    note_id = save(cast)
    stale = form(note_id, body="Late edit.")
    store.delete_note(cast.principal(cast.owner), note_id)
    client = as_user(cast.member, cast.acme)
    response = client.post(edit_url(note_id), stale)
    assert response.status_code == 302 and response["Location"] == f"/projects/payments/notes/{note_id}/"
    assert (
        "This note is deleted: restore it to edit it. Nothing was saved."
        in client.get(response["Location"]).content.decode()
    )
    note = Note.objects.get(public_id=note_id)
    assert note.body == "Stripe retries three times." and note.deleted_at is not None
