"""/api/v1 revisions: list, read one, restore one (as a new version, through the store)."""

from __future__ import annotations

from memory.models import Note
from tests.mcp_gateway.state import db_state, edit, save


def test_list_and_read_revisions(api, cast):
    note_id = save(cast, "Retries", "Webhooks retry 3 times.")
    edit(cast, note_id, body="Webhooks retry 5 times.")
    listed = api.get(f"/notes/{note_id}/revisions", include_body="true")
    assert listed.status == 200 and listed.json["current_version"] == 2
    assert [(r["version"], r["body"]) for r in listed.json["revisions"]] == [(1, "Webhooks retry 3 times.")]
    one = api.get(f"/notes/{note_id}/revisions/1").json["revision"]
    assert (one["version"], one["current"], one["body"]) == (1, False, "Webhooks retry 3 times.")
    assert api.get(f"/notes/{note_id}/revisions/2").json["revision"]["current"] is True
    missing = api.get(f"/notes/{note_id}/revisions/9")
    assert missing.status == 404 and missing.error["code"] == "not_found"


def test_restore_a_revision_is_a_new_version_with_its_content(api, cast):
    note_id = save(cast, "Retries", "Webhooks retry 3 times.")
    edit(cast, note_id, title="Retries (5)", body="Webhooks retry 5 times.")
    stale = api.post(f"/notes/{note_id}/revisions/1/restore", headers={"If-Match": '"1"'})
    assert stale.status == 409 and stale.error["current_version"] == 2
    restored = api.post(f"/notes/{note_id}/revisions/1/restore", headers={"If-Match": '"2"'})
    assert restored.status == 200, restored
    assert restored.json["restored_version"] == 1 and restored.headers["ETag"] == '"3"'
    note = Note.objects.get(public_id=note_id)
    assert (note.version, note.title, note.body) == (3, "Retries", "Webhooks retry 3 times.")
    assert api.get(f"/notes/{note_id}/revisions").json["current_version"] == 3


def test_restoring_the_current_version_or_as_a_viewer_changes_nothing(api, cast):
    note_id = save(cast, "Retries", "Webhooks retry 3 times.")
    edit(cast, note_id, body="Webhooks retry 5 times.")
    before = db_state()
    assert api.post(f"/notes/{note_id}/revisions/2/restore").status == 400
    assert api.as_(cast.key(cast.viewer)).post(f"/notes/{note_id}/revisions/1/restore").status == 403
    assert db_state() == before
