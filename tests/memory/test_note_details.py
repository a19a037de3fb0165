"""get_note_details: one note for review, deleted or not, with authorship and the supersession chain."""

from __future__ import annotations

import pytest

from accounts.errors import NotFound
from memory import registry, store
from memory.models import Note
from memory.store import details


def save(cast, title, who=None, **fields):
    return store.create_note(
        cast.principal(who or cast.member), project="payments", title=title, body=f"{title}.", **fields
    )["note"]["id"]


def supersede(cast, old_ids, title, who=None):
    return store.remember(
        cast.principal(who or cast.member),
        "payments",
        f"{title}: a different statement entirely, number {len(title)}.",
        title=title,
        type="decision",
        supersedes=old_ids,
        force=True,
    )["note"]["id"]


def test_is_a_read():
    assert registry.STORE_FUNCTIONS["get_note_details"] == "read"


def test_authorship_client_and_no_chain(cast):
    note_id = save(cast, "Retries")
    store.update_note(cast.principal(cast.owner).with_client("Claude Code"), note_id, body="Retries: 5.")
    found = store.get_note_details(cast.principal(cast.viewer), note_id)
    assert found["note"]["id"] == note_id and found["note"]["body"] == "Retries: 5."
    assert (found["author"], found["last_edited_by"], found["last_edited_client"]) == (
        "mia@acme.test",
        "olivia@acme.test",
        "Claude Code",
    )
    assert (found["replaced"], found["replaced_by"], found["delete_reason"]) == ([], [], None)


def test_a_deleted_note_is_found_with_its_reason_unless_asked_not_to(cast):
    note_id = save(cast, "Old idea")
    store.delete_note(cast.principal(cast.member), note_id, reason="wrong")
    found = store.get_note_details(cast.principal(cast.owner), note_id)
    assert found["note"]["deleted_at"] and found["delete_reason"] == "wrong"
    with pytest.raises(NotFound):
        store.get_note_details(cast.principal(cast.owner), note_id, include_deleted=False)


def test_the_chain_is_walked_both_ways(cast):
    first = save(cast, "Sessions in cookies")
    second = supersede(cast, [first], "Sessions in JWT")
    third = supersede(cast, [second], "Sessions in opaque tokens")
    middle = store.get_note_details(cast.principal(cast.member), second)
    assert [n["id"] for n in middle["replaced"]] == [first]
    assert [n["id"] for n in middle["replaced_by"]] == [third]
    newest = store.get_note_details(cast.principal(cast.member), third)
    assert [n["id"] for n in newest["replaced"]] == [second, first]
    assert newest["replaced"][0]["status"] == "superseded"
    oldest = store.get_note_details(cast.principal(cast.member), first)
    assert [n["id"] for n in oldest["replaced_by"]] == [second, third]
    assert not oldest["replaced_by_more"]


def test_the_chain_is_bounded_and_says_so(cast, monkeypatch):
    monkeypatch.setattr(details, "CHAIN_LIMIT", 2)
    ids = [save(cast, "Version zero")]
    for n in range(1, 5):
        ids.append(supersede(cast, [ids[-1]], f"Version {'i' * n}"))
    oldest = store.get_note_details(cast.principal(cast.member), ids[0])
    assert [n["id"] for n in oldest["replaced_by"]] == ids[1:3] and oldest["replaced_by_more"]
    newest = store.get_note_details(cast.principal(cast.member), ids[-1])
    assert [n["id"] for n in newest["replaced"]] == [ids[3], ids[2]] and newest["replaced_more"]


def test_a_loop_in_the_chain_ends_the_walk(cast):
    a, b = save(cast, "A"), save(cast, "B")
    Note.objects.filter(public_id=a).update(superseded_by=Note.objects.get(public_id=b))
    Note.objects.filter(public_id=b).update(superseded_by=Note.objects.get(public_id=a))
    found = store.get_note_details(cast.principal(cast.member), a)
    assert [n["id"] for n in found["replaced_by"]] == [b]
    assert [n["id"] for n in found["replaced"]] == [b]


def test_private_links_in_the_chain_stay_hidden(cast):
    old = save(cast, "Team fact")
    private = supersede(cast, [old], "Mia's private replacement")
    Note.objects.filter(public_id=private).update(visibility="private")
    seen_by_owner = store.get_note_details(cast.principal(cast.owner), old)
    assert seen_by_owner["replaced_by"] == []
    assert [n["id"] for n in store.get_note_details(cast.principal(cast.member), old)["replaced_by"]] == [
        private
    ]


def test_outside_scope_is_not_found(cast):
    note_id = save(cast, "Team fact")
    private = save(cast, "Mine", visibility="private")
    with pytest.raises(NotFound):
        store.get_note_details(cast.principal(cast.outsider), note_id)
    with pytest.raises(NotFound):
        store.get_note_details(cast.principal(cast.owner), private)
    with pytest.raises(NotFound):
        store.get_note_details(cast.principal(cast.member, project=cast.website), note_id)
