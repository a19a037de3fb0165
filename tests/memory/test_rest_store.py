"""Store functions the REST API added: one project, one note, project updates, delete with a version,
revision restore and a note's links, through the store itself."""

from __future__ import annotations

import pytest

from accounts.errors import Forbidden, InvalidArgument, NotFound, VersionConflict
from accounts.models import AuditEvent
from memory import registry, store
from memory.models import Note, NoteLink, Project


def save(cast, title, body=None, project="payments", who=None, **fields):
    return store.create_note(
        cast.principal(who or cast.member), project=project, title=title, body=body or title, **fields
    )["note"]["id"]


def test_new_store_functions_are_classified():
    kinds = {name: registry.STORE_FUNCTIONS[name] for name in (
        "get_project", "update_project", "get_note", "restore_note_revision", "list_note_links",
        "export_content", "create_api_key", "list_api_keys", "revoke_api_key",
    )}  # fmt: skip
    assert kinds == {
        "get_project": "read",
        "update_project": "write",
        "get_note": "read",
        "restore_note_revision": "write",
        "list_note_links": "read",
        "export_content": "read",
        "create_api_key": "write",
        "list_api_keys": "read",
        "revoke_api_key": "write",
    }


def test_get_project_counts_only_notes_the_caller_sees(cast):
    save(cast, "Team note")
    save(cast, "Mia's own", visibility="private")
    gone = save(cast, "Gone")
    store.delete_note(cast.principal(cast.member), gone)
    project = store.get_project(cast.principal(cast.owner), "payments")["project"]
    assert (project["slug"], project["name"], project["notes"]) == ("payments", "Payments API", 1)
    assert store.get_project(cast.principal(cast.member), "payments")["project"]["notes"] == 2
    assert set(project) >= {"summary", "agent_instructions", "created_at", "updated_at"}


def test_get_project_outside_scope_is_not_found(cast):
    with pytest.raises(NotFound):
        store.get_project(cast.principal(cast.outsider), "payments")
    with pytest.raises(NotFound):
        store.get_project(cast.principal(cast.member, project=cast.website), "payments")


def test_update_project_changes_only_what_is_given(cast):
    result = store.update_project(
        cast.principal(cast.member),
        "payments",
        summary="Card payments.",
        agent_instructions="Amounts in cents.",
    )["project"]
    assert (result["name"], result["summary"], result["agent_instructions"]) == (
        "Payments API",
        "Card payments.",
        "Amounts in cents.",
    )
    renamed = store.update_project(cast.principal(cast.member), "payments", name="Billing", slug="billing")
    assert (renamed["project"]["slug"], renamed["project"]["summary"]) == ("billing", "Card payments.")
    assert AuditEvent.objects.filter(action="project.updated").count() == 2


@pytest.mark.parametrize(
    "changes",
    [{}, {"name": "  "}, {"slug": "Not A Slug"}, {"slug": "website"}, {"summary": "x" * 20_001}, {"name": 5}],
)
def test_update_project_refuses_bad_changes(cast, changes):
    with pytest.raises(InvalidArgument):
        store.update_project(cast.principal(cast.member), "payments", **changes)
    assert Project.objects.get(pk=cast.payments.pk).slug == "payments"


def test_update_project_is_a_write(cast):
    with pytest.raises(Forbidden):
        store.update_project(cast.principal(cast.viewer), "payments", summary="x")
    with pytest.raises(NotFound):
        store.update_project(cast.principal(cast.outsider), "payments", summary="x")


def test_get_note_reads_one_visible_note(cast):
    note_id = save(cast, "Port", "The API listens on 8080.")
    note = store.get_note(cast.principal(cast.viewer), note_id)["note"]
    assert (note["id"], note["body"], note["version"]) == (note_id, "The API listens on 8080.", 1)
    assert "body" not in store.get_note(cast.principal(cast.viewer), note_id, include_body=False)["note"]
    private = save(cast, "Mine", visibility="private")
    for principal in (cast.principal(cast.owner), cast.principal(cast.outsider)):
        with pytest.raises(NotFound):
            store.get_note(principal, private)


def test_delete_with_a_stale_expected_version_changes_nothing(cast):
    note_id = save(cast, "Port")
    store.update_note(cast.principal(cast.member), note_id, body="The API listens on 9090.")
    with pytest.raises(VersionConflict) as conflict:
        store.delete_note(cast.principal(cast.member), note_id, expected_version=1)
    assert conflict.value.details == {"current_version": 2, "expected_version": 1}
    assert Note.objects.get(public_id=note_id).deleted_at is None
    assert store.delete_note(cast.principal(cast.member), note_id, expected_version=2)["status"] == "deleted"


def test_restore_a_revision_makes_its_content_current_as_a_new_version(cast):
    principal = cast.principal(cast.member)
    note_id = save(cast, "Retries", "Webhooks retry 3 times.", type="fact", tags=["webhooks"])
    store.update_note(principal, note_id, title="Retries (5)", body="Webhooks retry 5 times.", tags=["x"])
    store.update_note(principal, note_id, status="disputed")
    result = store.restore_note_revision(principal, note_id, 1)
    note = result["note"]
    assert (result["status"], result["restored_version"]) == ("restored", 1)
    assert (note["version"], note["title"], note["body"], note["tags"]) == (
        4,
        "Retries",
        "Webhooks retry 3 times.",
        ["webhooks"],
    )
    assert note["status"] == "disputed"  # status is not content: it stays as decided since
    kept = [r["version"] for r in store.list_note_revisions(principal, note_id)["revisions"]]
    assert kept == [3, 2, 1]


def test_restore_a_revision_refuses_current_missing_and_stale(cast):
    principal = cast.principal(cast.member)
    note_id = save(cast, "Retries", "Webhooks retry 3 times.")
    store.update_note(principal, note_id, body="Webhooks retry 5 times.")
    with pytest.raises(InvalidArgument):
        store.restore_note_revision(principal, note_id, 2)
    with pytest.raises(NotFound):
        store.restore_note_revision(principal, note_id, 7)
    with pytest.raises(VersionConflict):
        store.restore_note_revision(principal, note_id, 1, expected_version=1)
    with pytest.raises(NotFound):
        store.restore_note_revision(cast.principal(cast.outsider), note_id, 1)
    with pytest.raises(Forbidden):
        store.restore_note_revision(cast.principal(cast.viewer), note_id, 1)
    assert Note.objects.get(public_id=note_id).version == 2


def test_list_note_links_both_ways_without_invisible_ends(cast):
    principal = cast.principal(cast.member)
    a, b, c = save(cast, "A"), save(cast, "B"), save(cast, "C")
    hidden = save(cast, "Owner's private", who=cast.owner, visibility="private")
    store.relate_notes(principal, a, b, "depends_on")
    store.relate_notes(principal, c, a, "contradicts")
    store.relate_notes(cast.principal(cast.owner), hidden, a, "relates_to")
    links = store.list_note_links(principal, a)
    assert links["id"] == a
    assert [(x["to_id"], x["kind"], x["title"]) for x in links["outbound"]] == [(b, "depends_on", "B")]
    assert [(x["from_id"], x["kind"]) for x in links["inbound"]] == [(c, "contradicts")]
    owner_view = store.list_note_links(cast.principal(cast.owner), a)
    assert {x["from_id"] for x in owner_view["inbound"]} == {c, hidden}
    with pytest.raises(NotFound):
        store.list_note_links(cast.principal(cast.outsider), a)
    assert NoteLink.objects.count() == 3
