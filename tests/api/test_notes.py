"""/api/v1 notes: create, read, list with cursor pages, batch read, update and patch with ETag /
If-Match, soft delete and restore."""

from __future__ import annotations

import pytest

from memory.models import Note, NoteRevision
from tests.mcp_gateway.state import db_state, save


def test_create_answers_201_with_the_note_its_etag_and_location(api):
    answer = api.post(
        "/projects/payments/notes",
        {
            "title": "Webhooks",
            "body": "Retries 3 times.",
            "type": "fact",
            "tags": ["Stripe Hooks"],
            "importance": 0.7,
        },
    )
    assert answer.status == 201, answer
    note = answer.json["note"]
    assert (note["title"], note["body"], note["type"], note["tags"], note["importance"], note["version"]) == (
        "Webhooks",
        "Retries 3 times.",
        "fact",
        ["stripe-hooks"],  # the store's normalisation, as over MCP
        0.7,
        1,
    )
    assert answer.headers["ETag"] == '"1"' and answer.headers["Location"] == f"/api/v1/notes/{note['id']}"
    assert note["source"] == "rest-api"


def test_read_a_note_with_its_version_as_etag(api, cast):
    note_id = save(cast, "Port", "The API listens on 8080.")
    answer = api.get(f"/notes/{note_id}")
    assert answer.status == 200 and answer.json["note"]["body"] == "The API listens on 8080."
    assert answer.headers["ETag"] == '"1"'
    assert "body" not in api.get(f"/notes/{note_id}", include_body="false").json["note"]


def test_update_with_if_match_applies_once_then_conflicts_naming_both_versions(api, cast):
    note_id = save(cast, "Port", "The API listens on 8080.")
    first = api.patch(f"/notes/{note_id}", {"body": "The API listens on 9090."}, headers={"If-Match": '"1"'})
    assert first.status == 200 and first.headers["ETag"] == '"2"'
    stale = api.patch(f"/notes/{note_id}", {"body": "The API listens on 7070."}, headers={"If-Match": '"1"'})
    assert stale.status == 409
    assert stale.error["code"] == "version_conflict"
    assert (stale.error["current_version"], stale.error["expected_version"]) == (2, 1)
    assert Note.objects.get(public_id=note_id).body == "The API listens on 9090."


@pytest.mark.parametrize("header", ['W/"1"', "1", "*"])
def test_if_match_forms(api, cast, header):
    note_id = save(cast, "Port", "The API listens on 8080.")
    assert api.patch(f"/notes/{note_id}", {"title": "Port 8080"}, headers={"If-Match": header}).status == 200


def test_expected_version_in_the_body_works_as_if_match(api, cast):
    note_id = save(cast, "Port", "The API listens on 8080.")
    assert api.patch(f"/notes/{note_id}", {"title": "Port", "expected_version": 3}).status == 409
    assert api.patch(f"/notes/{note_id}", {"title": "Port", "expected_version": 1}).status == 200


@pytest.mark.parametrize("header", ['"abc"', '"1", "2"', "-1", '"99999999999999999999"'])
def test_a_malformed_or_disagreeing_if_match_is_400_and_changes_nothing(api, cast, header):
    note_id = save(cast, "Port", "The API listens on 8080.")
    before = db_state()
    bad = api.patch(f"/notes/{note_id}", {"title": "x"}, headers={"If-Match": header})
    assert bad.status == 400 and bad.error["code"] == "invalid_argument"
    disagree = api.patch(
        f"/notes/{note_id}", {"title": "x", "expected_version": 2}, headers={"If-Match": '"1"'}
    )
    assert disagree.status == 400
    assert db_state() == before


def test_patch_appends_replaces_and_refuses_an_absent_find(api, cast):
    note_id = save(cast, "Retries", "Webhooks retry 3 times.")
    appended = api.post(f"/notes/{note_id}/patch", {"op": "append", "text": "Then they stop."})
    assert appended.json["note"]["body"] == "Webhooks retry 3 times.\n\nThen they stop."
    replaced = api.post(
        f"/notes/{note_id}/patch",
        {"op": "replace", "find": "3 times", "text": "5 times"},
        headers={"If-Match": '"2"'},
    )
    assert (
        replaced.json["note"]["body"].startswith("Webhooks retry 5 times.")
        and replaced.headers["ETag"] == '"3"'
    )
    absent = api.post(f"/notes/{note_id}/patch", {"op": "replace", "find": "7 times", "text": "x"})
    assert absent.status == 400 and "does not occur" in absent.error["message"]
    assert Note.objects.get(public_id=note_id).version == 3


def test_delete_is_soft_and_restore_brings_it_back(api, cast):
    note_id = save(cast, "Port", "The API listens on 8080.")
    stale = api.delete(f"/notes/{note_id}", headers={"If-Match": '"7"'})
    assert stale.status == 409 and Note.objects.get(public_id=note_id).deleted_at is None
    deleted = api.call("DELETE", f"/notes/{note_id}", query={"reason": "wrong port"})
    assert deleted.status == 200 and deleted.json["status"] == "deleted"
    assert api.get(f"/notes/{note_id}").status == 404
    restored = api.post(f"/notes/{note_id}/restore")
    assert restored.status == 200 and restored.json["status"] == "restored"
    assert api.get(f"/notes/{note_id}").status == 200
    assert api.post(f"/notes/{note_id}/restore").status == 400  # not deleted


def test_list_pages_by_cursor_with_filters(api, cast):
    for i in range(5):
        save(cast, f"Decision {i}", f"Body {i}", type="decision")
    save(cast, "A fact", "Not a decision.", type="fact")
    seen, cursor = [], None
    while True:
        query = {"types": ["decision"], "limit": 2, **({"cursor": cursor} if cursor else {})}
        page = api.get("/projects/payments/notes", **query)
        assert page.status == 200, page
        assert page.json["total"] == 5 and "next_offset" not in page.json
        seen += [note["title"] for note in page.json["notes"]]
        cursor = page.json["next_cursor"]
        if cursor is None:
            break
    assert sorted(seen) == [f"Decision {i}" for i in range(5)] and len(seen) == 5
    first = api.get("/projects/payments/notes", types=["decision"], limit=2)
    changed = api.get("/projects/payments/notes", types=["fact"], cursor=first.json["next_cursor"])
    assert changed.status == 400 and "cursor" in changed.error["message"]


@pytest.mark.parametrize(
    "query",
    [{"sort": "title"}, {"limit": 0}, {"limit": "many"}, {"types": "memo"}, {"updated_after": "yesterday"}],
)
def test_bad_list_filters_are_400(api, cast, query):
    answer = api.get("/projects/payments/notes", **query)
    assert answer.status == 400 and answer.error["code"] == "invalid_argument"


def test_batch_read_lists_missing_ids(api, cast):
    note_id = save(cast, "Port", "The API listens on 8080.")
    private = save(cast, "Olivia's", "private", user=cast.owner, visibility="private")
    answer = api.get("/notes", ids=[note_id, private, "n_DoesNotExist0000"])
    assert [n["id"] for n in answer.json["notes"]] == [note_id]
    assert answer.json["missing"] == [private, "n_DoesNotExist0000"]


def test_viewer_reads_but_cannot_write(cast, api):
    note_id = save(cast, "Port", "The API listens on 8080.")
    viewer = api.as_(cast.key(cast.viewer))
    assert viewer.get(f"/notes/{note_id}").status == 200
    before = db_state()
    for answer in (
        viewer.post("/projects/payments/notes", {"title": "t", "body": "b"}),
        viewer.patch(f"/notes/{note_id}", {"title": "x"}),
        viewer.post(f"/notes/{note_id}/patch", {"op": "append", "text": "x"}),
        viewer.delete(f"/notes/{note_id}"),
    ):
        assert answer.status == 403 and answer.error["code"] == "forbidden"
    assert db_state() == before and NoteRevision.objects.count() == 0
