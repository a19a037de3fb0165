"""store.bulk_update_notes: one change over many notes, each edited, screened and audited as usual."""

from __future__ import annotations

import pytest

from accounts.errors import Forbidden, InvalidArgument, NotFound, Screened
from accounts.models import AuditEvent
from memory import registry, store
from memory.models import Note, NoteRevision
from tests.mcp_gateway.state import db_state, save


@pytest.fixture
def three(cast):
    return [save(cast, f"Note {n}", f"body {n}", tags=["db", f"n{n}"]) for n in range(3)]


def test_it_is_a_write(cast):
    assert registry.STORE_FUNCTIONS["bulk_update_notes"] == "write"


def test_retag_adds_and_removes_keeping_revisions_and_audit(cast, three):
    result = store.bulk_update_notes(
        cast.principal(cast.member), "payments", three, "retag", add_tags=["Infra"], remove_tags=["db"]
    )
    assert (result["updated"], result["unchanged"], result["failed"]) == (three, [], [])
    notes = {n.public_id: n for n in Note.objects.filter(public_id__in=three)}
    assert [notes[i].tags for i in three] == [["n0", "infra"], ["n1", "infra"], ["n2", "infra"]]
    assert all(notes[i].version == 2 for i in three)
    assert NoteRevision.objects.filter(note__public_id__in=three, version=1).count() == 3
    events = AuditEvent.objects.filter(action="note.updated", object_id__in=three)
    assert events.count() == 3
    assert all(e.detail == {"fields": ["tags"], "bulk": "retag"} for e in events)


def test_notes_already_as_asked_are_unchanged_not_rewritten(cast, three):
    store.bulk_update_notes(cast.principal(cast.member), "payments", three[:1], "mark_historical")
    result = store.bulk_update_notes(cast.principal(cast.member), "payments", three, "mark_historical")
    assert (result["updated"], result["unchanged"]) == (three[1:], three[:1])
    assert Note.objects.get(public_id=three[0]).version == 2
    assert set(Note.objects.filter(public_id__in=three).values_list("status", flat=True)) == {"historical"}


def test_delete_is_a_soft_delete_with_a_reason(cast, three):
    result = store.bulk_update_notes(
        cast.principal(cast.owner), "payments", three[:2], "delete", reason="stale"
    )
    assert result["updated"] == three[:2]
    deleted = Note.objects.filter(public_id__in=three[:2])
    assert all(n.deleted_at is not None and n.delete_reason == "stale" for n in deleted)
    assert AuditEvent.objects.filter(action="note.deleted", object_id__in=three[:2]).count() == 2
    store.restore_note(cast.principal(cast.owner), three[0])  # still restorable


def test_a_stale_version_fails_that_note_only_and_says_so(cast, three):
    store.update_note(cast.principal(cast.owner), three[1], body="edited meanwhile")
    result = store.bulk_update_notes(
        cast.principal(cast.member),
        "payments",
        three,
        "mark_historical",
        expected_versions=dict.fromkeys(three, 1),
    )
    assert result["updated"] == [three[0], three[2]]
    assert [(f["id"], f["code"]) for f in result["failed"]] == [(three[1], "version_conflict")]
    assert "version 2" in result["failed"][0]["message"]
    stale = Note.objects.get(public_id=three[1])
    assert (stale.status, stale.version, stale.body) == ("current", 2, "edited meanwhile")


def test_unknown_foreign_and_other_project_ids_fail_as_not_found(cast, three):
    website = save(cast, "Site", "elsewhere", project="website")
    private = save(cast, "Olivia's own", "mine", user=cast.owner, visibility="private")
    lab = store.create_note(cast.principal(cast.outsider), "lab", "Lab", "secret lab")["note"]["id"]
    ids = [three[0], website, private, lab, "n_nosuchnote"]
    result = store.bulk_update_notes(cast.principal(cast.member), "payments", ids, "delete")
    assert result["updated"] == [three[0]]
    assert [f["id"] for f in result["failed"]] == ids[1:]
    assert {f["code"] for f in result["failed"]} == {"not_found"}
    assert Note.objects.filter(deleted_at__isnull=False).count() == 1


def test_too_many_tags_fails_per_note(cast):
    full = save(cast, "Full", "many tags", tags=[f"t{n}" for n in range(20)])
    light = save(cast, "Light", "one tag", tags=["a"])
    result = store.bulk_update_notes(
        cast.principal(cast.member), "payments", [full, light], "retag", add_tags=["x"]
    )
    assert result["updated"] == [light]
    assert result["failed"][0]["id"] == full and result["failed"][0]["code"] == "invalid_argument"
    assert Note.objects.get(public_id=full).version == 1


@pytest.mark.parametrize(
    "arguments",
    [
        {"ids": [], "action": "delete"},
        {"action": "explode"},
        {"action": "retag"},
        {"action": "delete", "add_tags": ["x"]},
        {"action": "retag", "add_tags": ["not a tag!"]},
        {"action": "retag", "add_tags": "x"},
        {"action": "mark_historical", "reason": "why"},
        {"action": "delete", "expected_versions": {"n_other": 1}},
        {"action": "delete", "expected_versions": ["x"]},
        {"action": "delete", "expected_versions": "FIRST"},
    ],
)
def test_bad_arguments_are_refused_and_nothing_changes(cast, three, arguments):
    before = db_state()
    arguments = {"ids": three, **arguments}
    if arguments.get("expected_versions") == "FIRST":
        arguments["expected_versions"] = {three[0]: "1"}
    with pytest.raises(InvalidArgument):
        store.bulk_update_notes(cast.principal(cast.member), "payments", **arguments)
    assert db_state() == before


def test_viewer_and_outsider_are_refused(cast, three):
    before = db_state()
    with pytest.raises(Forbidden):
        store.bulk_update_notes(cast.principal(cast.viewer), "payments", three, "delete")
    with pytest.raises(Forbidden):
        store.bulk_update_notes(cast.principal(cast.member, read_only=True), "payments", three, "delete")
    with pytest.raises(NotFound):
        store.bulk_update_notes(cast.principal(cast.outsider), "payments", three, "delete")
    assert db_state() == before


def test_a_screened_tag_refuses_the_whole_call(cast, three):
    before = db_state()
    with pytest.raises(Screened):
        store.bulk_update_notes(
            cast.principal(cast.member), "payments", three, "retag", add_tags=["ghp_" + "a1B2" * 9]
        )
    assert db_state() == before
    assert AuditEvent.objects.filter(action="write.screened").exists()
