"""A note written from the web is judged as an agent's: new, merged, already known, or a
contradiction the person decides."""

from __future__ import annotations

from memory.models import Note
from tests.mcp_gateway.state import save

URL = "/projects/payments/notes/new/"


def test_a_new_note_is_saved_and_shown(client, cast):
    client.force_login(cast.member)
    assert "New note" in client.get(URL).content.decode()
    assert 'href="/projects/payments/notes/new/"' in client.get("/projects/payments/").content.decode()
    response = client.post(
        URL, {"body": "Refunds go through the ledger.", "type": "decision", "tags": "refunds"}
    )
    note = Note.objects.get(body="Refunds go through the ledger.")
    assert (
        response.status_code == 302 and response["Location"] == f"/projects/payments/notes/{note.public_id}/"
    )
    assert note.type == "decision" and note.tags == ["refunds"] and note.source == "web"
    assert "Saved as a new note." in client.get(response["Location"]).content.decode()


def test_a_known_note_is_not_saved_twice(client, cast):
    known = save(cast, "Cents", "Amounts are integers in cents.")
    client.force_login(cast.member)
    response = client.post(URL, {"body": "Amounts are integers in cents.", "type": "fact"})
    assert response["Location"] == f"/projects/payments/notes/{known}/"
    assert Note.objects.filter(body="Amounts are integers in cents.").count() == 1


def test_a_contradiction_is_shown_and_both_can_be_kept(client, cast):
    known = save(cast, "Redis", "We use Redis for rate limiting.", type="fact")
    client.force_login(cast.member)
    refused = client.post(URL, {"body": "We do not use Redis for rate limiting.", "type": "fact"})
    html = refused.content.decode()
    assert refused.status_code == 400 and "Nothing was saved: this contradicts" in html
    assert f"/projects/payments/notes/{known}/" in html and 'name="keep_both"' in html
    kept = client.post(
        URL, {"body": "We do not use Redis for rate limiting.", "type": "fact", "keep_both": "on"}
    )
    assert kept.status_code == 302 and Note.objects.filter(body__startswith="We do not use Redis").exists()


def test_viewers_cannot_write_and_bad_input_is_a_form_error(client, cast):
    client.force_login(cast.viewer)
    assert client.get(URL).status_code == 403
    client.force_login(cast.member)
    assert client.post(URL, {"body": "", "type": "fact"}).status_code == 400
    assert client.post(URL, {"body": "x", "type": "nonsense"}).status_code == 400
