"""save_note, patch_note, delete / restore, revisions and versions through the store."""

from __future__ import annotations

import pytest

from accounts.errors import Forbidden, InvalidArgument, NotFound, VersionConflict
from memory import store
from memory.models import Note, NoteRevision
from memory.notes import reinforcement


@pytest.fixture
def note_id(cast):
    result = store.create_note(
        cast.principal(cast.member),
        project="payments",
        title="Retries",
        body="Webhooks retry 3 times.",
        type="fact",
    )
    return result["note"]["id"]


def test_save_note_creates_with_all_fields(cast):
    note = store.create_note(
        cast.principal(cast.member),
        project="payments",
        title="Money",
        body="Amounts in cents.",
        type="constraint",
        status="pending",
        tags=["money"],
        importance=0.8,
        visibility="private",
    )["note"]
    assert {
        k: note[k] for k in ("title", "body", "type", "status", "tags", "importance", "visibility", "version")
    } == {
        "title": "Money",
        "body": "Amounts in cents.",
        "type": "constraint",
        "status": "pending",
        "tags": ["money"],
        "importance": 0.8,
        "visibility": "private",
        "version": 1,
    }
    assert note["id"].startswith("n_") and note["project"] == "payments"


def test_update_keeps_a_revision_and_bumps_the_version(cast, note_id):
    updated = store.update_note(
        cast.principal(cast.owner), id=note_id, body="Webhooks retry 5 times.", expected_version=1
    )
    assert updated["note"]["version"] == 2 and updated["note"]["body"] == "Webhooks retry 5 times."
    revisions = store.list_note_revisions(cast.principal(cast.member), note_id)
    assert revisions["current_version"] == 2
    assert [(r["version"], r["edited_by"]) for r in revisions["revisions"]] == [(1, "mia@acme.test")]
    old = store.get_note_revision(cast.principal(cast.member), note_id, 1)["revision"]
    assert old["body"] == "Webhooks retry 3 times." and not old["current"]
    current = store.get_note_revision(cast.principal(cast.member), note_id, 2)["revision"]
    assert current["current"] and current["edited_by"] == "olivia@acme.test"


def test_stale_expected_version_names_both_versions_and_writes_nothing(cast, note_id):
    store.update_note(cast.principal(cast.member), id=note_id, body="v2")
    with pytest.raises(VersionConflict) as conflict:
        store.update_note(cast.principal(cast.member), id=note_id, body="v3?", expected_version=1)
    assert "version 2" in conflict.value.message and "expected_version 1" in conflict.value.message
    assert conflict.value.details == {"current_version": 2, "expected_version": 1}
    note = Note.objects.get(public_id=note_id)
    assert (note.body, note.version, NoteRevision.objects.filter(note=note).count()) == ("v2", 2, 1)


def test_revisions_are_capped_per_plan_oldest_pruned(cast, note_id):
    plan = cast.plan
    plan.max_revisions_per_note = 3
    plan.save()
    for n in range(6):
        store.patch_note(cast.principal(cast.member), note_id, "append", f"line {n}")
    kept = list(NoteRevision.objects.filter(note__public_id=note_id).values_list("version", flat=True))
    assert sorted(kept) == [4, 5, 6]
    assert Note.objects.get(public_id=note_id).version == 7
    with pytest.raises(NotFound, match="pruned"):
        store.get_note_revision(cast.principal(cast.member), note_id, 1)


def test_patch_append_prepend_replace(cast, note_id):
    principal = cast.principal(cast.member)
    store.patch_note(principal, note_id, "append", "Handlers are idempotent.")
    store.patch_note(principal, note_id, "prepend", "# Webhooks")
    result = store.patch_note(principal, note_id, "replace", "5 times", find="3 times", expected_version=3)
    assert result["note"]["body"] == "# Webhooks\n\nWebhooks retry 5 times.\n\nHandlers are idempotent."
    assert result["note"]["version"] == 4


@pytest.mark.parametrize(
    ("find", "message"),
    [("4 times", "does not occur"), ("e", "occurs"), (None, "needs `find`"), ("", "needs")],
)
def test_replace_with_absent_or_ambiguous_find_fails_and_writes_nothing(cast, note_id, find, message):
    with pytest.raises(InvalidArgument, match=message):
        store.patch_note(cast.principal(cast.member), note_id, "replace", "x", find=find)
    note = Note.objects.get(public_id=note_id)
    assert (note.version, note.body) == (1, "Webhooks retry 3 times.")
    assert not NoteRevision.objects.exists()


def test_patch_rejects_unknown_ops(cast, note_id):
    with pytest.raises(InvalidArgument):
        store.patch_note(cast.principal(cast.member), note_id, "delete", "x")


def test_delete_is_soft_and_restorable(cast, note_id):
    result = store.delete_note(cast.principal(cast.member), note_id, reason="obsolete")
    assert result["status"] == "deleted" and result["note"]["deleted_at"]
    assert store.get_notes(cast.principal(cast.member), [note_id]) == {"notes": [], "missing": [note_id]}
    with pytest.raises(NotFound):
        store.delete_note(cast.principal(cast.member), note_id)
    restored = store.restore_note(cast.principal(cast.member), note_id)
    assert restored["status"] == "restored"
    assert store.get_notes(cast.principal(cast.member), [note_id])["notes"][0]["version"] == 3


def test_get_notes_keeps_order_lists_missing_and_reinforces(cast, note_id):
    other = store.create_note(cast.principal(cast.member), project="website", title="W", body="b")["note"][
        "id"
    ]
    foreign = store.create_note(cast.principal(cast.outsider), project="lab", title="L", body="b")["note"][
        "id"
    ]
    result = store.get_notes(cast.principal(cast.member), [other, foreign, note_id], include_body=False)
    assert [n["id"] for n in result["notes"]] == [other, note_id]
    assert result["missing"] == [foreign]
    assert "body" not in result["notes"][0] and result["notes"][0]["body_chars"] == 1
    reinforcement.flush()
    assert Note.objects.get(public_id=note_id).access_count == 1


def test_visibility_change_is_for_the_author_only(cast, note_id):
    with pytest.raises(Forbidden):
        store.update_note(cast.principal(cast.owner), id=note_id, visibility="private")
    store.update_note(cast.principal(cast.member), id=note_id, visibility="private")
    with pytest.raises(NotFound):
        store.update_note(cast.principal(cast.owner), id=note_id, title="hidden from the owner now")


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"id": "n_x", "project": "payments"},
        {"project": "payments", "title": "", "body": "b"},
        {"project": "payments", "title": "t", "body": "b", "expected_version": 1},
        {"project": "payments", "title": "t", "body": "b", "status": "gone"},
    ],
)
def test_create_note_bad_input(cast, kwargs):
    with pytest.raises(InvalidArgument):
        store.create_note(cast.principal(cast.member), **kwargs)


def test_update_with_nothing_to_change_is_invalid(cast, note_id):
    with pytest.raises(InvalidArgument, match="Nothing to change"):
        store.update_note(cast.principal(cast.member), id=note_id)


@pytest.mark.parametrize("who", ["outsider", "scoped", "other_private"])
def test_foreign_ids_are_not_found_for_every_edit(cast, note_id, who):
    if who == "outsider":
        principal = cast.principal(cast.outsider)
    elif who == "scoped":
        principal = cast.principal(cast.member, project=cast.website)
    else:
        Note.objects.filter(public_id=note_id).update(visibility="private")
        principal = cast.principal(cast.owner)
    calls = [
        lambda: store.update_note(principal, id=note_id, title="x"),
        lambda: store.patch_note(principal, note_id, "append", "x"),
        lambda: store.delete_note(principal, note_id),
        lambda: store.restore_note(principal, note_id),
        lambda: store.list_note_revisions(principal, note_id),
        lambda: store.get_note_revision(principal, note_id, 1),
    ]
    for call in calls:
        with pytest.raises(NotFound):
            call()
    note = Note.objects.get(public_id=note_id)
    assert (note.version, note.title, note.deleted_at) == (1, "Retries", None)


def test_a_revision_names_the_editor_and_client_of_its_version_not_the_creator(cast):
    created = store.create_note(cast.principal(cast.member).with_client("cursor"), "payments", "T", "v1")
    note_id = created["note"]["id"]
    store.update_note(cast.principal(cast.owner).with_client("claude-code"), note_id, body="v2")
    store.update_note(cast.principal(cast.member).with_client("web"), note_id, body="v3")
    revisions = {r.version: r for r in NoteRevision.objects.filter(note__public_id=note_id)}
    assert (revisions[1].edited_by_id, revisions[1].client) == (cast.member.pk, "cursor")
    assert (revisions[2].edited_by_id, revisions[2].client) == (cast.owner.pk, "claude-code")
    note = Note.objects.get(public_id=note_id)
    assert (note.source, note.last_edited_client, note.last_edited_by_id) == ("cursor", "web", cast.member.pk)
