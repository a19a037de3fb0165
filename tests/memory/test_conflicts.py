"""The conflicts queue and its resolutions through the store: each resolution, versions, audit rows,
isolation (foreign id → not_found, viewer → forbidden) and the staff principal's narrower view."""

from __future__ import annotations

import pytest

from accounts.errors import Forbidden, InvalidArgument, NotFound, VersionConflict
from accounts.models import AuditEvent, User
from accounts.principal import AuthMethod, principal_for_staff
from memory import store
from memory.models import Note, NoteLink, NoteRevision
from tests.mcp_gateway.state import db_state, save


def contradiction(cast, *, project="payments", user=None):
    """Two notes of `project`, A saying it contradicts B; returns (a, b) ids."""
    a = save(cast, "Tokens are opaque", "Sessions use opaque tokens.", project=project, user=user)
    b = save(cast, "Tokens are JWTs", "Sessions use JWTs.", project=project, user=user)
    principal = cast.principal(user or cast.member)
    store.relate_notes(principal, a, b, "contradicts")
    store.update_note(principal, a, status="disputed")
    return a, b


def note(public_id):
    return Note.objects.get(public_id=public_id)


def test_the_queue_shows_contradictions_supersessions_and_lone_disputes_as_pairs(cast):
    a, b = contradiction(cast)
    old = save(cast, "Deploy on Fridays", "We deploy on Fridays.")
    new = save(cast, "Deploy on Tuesdays", "We deploy on Tuesdays.")
    Note.objects.filter(public_id=old).update(superseded_by=note(new))  # B says it replaced A: unfinished
    lone = save(cast, "Cache TTL", "The cache keeps entries 5 minutes.", status="disputed")
    save(cast, "Unrelated", "Nothing to see.")

    queue = store.list_conflicts(cast.principal(cast.viewer))

    assert queue["total"] == 3 and queue["next_offset"] is None
    by_kind = {c["kind"]: c for c in queue["conflicts"]}
    assert set(by_kind) == {"contradicts", "supersession", "disputed"}
    pair, supersession = by_kind["contradicts"], by_kind["supersession"]
    assert pair["b"] is not None and supersession["b"] is not None
    assert (pair["a"]["id"], pair["b"]["id"]) == (a, b)
    assert pair["a"]["status"] == "disputed" and pair["b"]["status"] == "current"
    assert pair["a"]["excerpt"] == "Sessions use opaque tokens." and pair["a"]["author"] == "mia@acme.test"
    assert pair["a"]["version"] == 2 and pair["resolutions"] == [
        "a_supersedes_b",
        "b_supersedes_a",
        "both_true",
        "a_historical",
        "b_historical",
    ]
    assert (supersession["a"]["id"], supersession["b"]["id"]) == (new, old)
    assert by_kind["disputed"]["a"]["id"] == lone and by_kind["disputed"]["b"] is None
    assert by_kind["disputed"]["resolutions"] == ["both_true", "a_historical"]


def test_the_queue_pages_and_narrows_to_a_project(cast):
    for _ in range(3):
        contradiction(cast)
    contradiction(cast, project="website")
    principal = cast.principal(cast.member)
    first = store.list_conflicts(principal, limit=2)
    second = store.list_conflicts(principal, limit=2, offset=first["next_offset"])
    assert first["total"] == 4 and len(first["conflicts"]) == 2 and second["next_offset"] is None
    ids = [c["a"]["id"] for c in first["conflicts"] + second["conflicts"]]
    assert len(set(ids)) == 4
    assert store.list_conflicts(principal, project="website")["total"] == 1
    with pytest.raises(InvalidArgument):
        store.list_conflicts(principal, limit=0)


def test_a_supersedes_b_retires_b_removes_the_link_and_settles_a(cast):
    a, b = contradiction(cast)
    result = store.resolve_conflict(cast.principal(cast.member), a, b, "a_supersedes_b")
    assert result["status"] == "resolved" and result["links_removed"] == 1
    assert (note(a).status, note(b).status) == ("current", "superseded")
    assert note(b).superseded_by == note(a)
    assert not NoteLink.objects.exists()
    assert NoteRevision.objects.filter(note=note(b), version=1, status="current").exists()
    assert store.list_conflicts(cast.principal(cast.member))["total"] == 0


def test_b_supersedes_a(cast):
    a, b = contradiction(cast)
    store.resolve_conflict(cast.principal(cast.member), a, b, "b_supersedes_a")
    assert (note(a).status, note(a).superseded_by_id, note(b).status) == ("superseded", note(b).pk, "current")


def test_both_true_removes_the_dispute_and_keeps_both_current(cast):
    a, b = contradiction(cast)
    store.resolve_conflict(cast.principal(cast.member), a, b, "both_true")
    assert (note(a).status, note(b).status) == ("current", "current")
    assert note(b).version == 1  # nothing to change on B: no new version
    assert not NoteLink.objects.filter(kind="contradicts").exists()


@pytest.mark.parametrize(("resolution", "historical"), [("a_historical", "a"), ("b_historical", "b")])
def test_one_side_marked_historical(cast, resolution, historical):
    a, b = contradiction(cast)
    store.resolve_conflict(cast.principal(cast.member), a, b, resolution)
    statuses = {"a": note(a).status, "b": note(b).status}
    assert statuses[historical] == "historical"
    assert statuses["b" if historical == "a" else "a"] == "current"


def test_an_unfinished_supersession_is_finished_or_undone(cast):
    old = save(cast, "Deploy on Fridays", "We deploy on Fridays.")
    new = save(cast, "Deploy on Tuesdays", "We deploy on Tuesdays.")
    Note.objects.filter(public_id=old).update(superseded_by=note(new))
    store.resolve_conflict(cast.principal(cast.member), new, old, "a_supersedes_b")
    assert (note(old).status, note(old).superseded_by_id) == ("superseded", note(new).pk)

    other_old = save(cast, "Release from main", "Releases are cut from main.")
    other_new = save(cast, "Release from tags", "Releases are cut from tags.")
    Note.objects.filter(public_id=other_old).update(superseded_by=note(other_new))
    store.resolve_conflict(cast.principal(cast.member), other_new, other_old, "both_true")
    assert (note(other_old).status, note(other_old).superseded_by_id) == ("current", None)


def test_a_lone_dispute_is_kept_or_made_historical(cast):
    kept = save(cast, "Cache TTL", "The cache keeps entries 5 minutes.", status="disputed")
    gone = save(cast, "Cache size", "The cache holds 1,000 entries.", status="disputed")
    principal = cast.principal(cast.member)
    store.resolve_conflict(principal, kept, None, "both_true")
    store.resolve_conflict(principal, gone, None, "a_historical")
    assert (note(kept).status, note(gone).status) == ("current", "historical")
    with pytest.raises(InvalidArgument, match="needs `b`"):
        store.resolve_conflict(principal, kept, None, "a_supersedes_b")


def test_resolving_writes_audit_rows_naming_the_caller(cast):
    a, b = contradiction(cast)
    store.resolve_conflict(cast.principal(cast.owner), a, b, "a_supersedes_b")
    resolved = AuditEvent.objects.get(action="conflict.resolved")
    assert resolved.actor == cast.owner and resolved.team == cast.acme and resolved.object_id == a
    assert resolved.detail == {"b": b, "resolution": "a_supersedes_b", "links_removed": 1}
    edits = AuditEvent.objects.filter(action="note.updated", detail__via="resolve_conflict")
    assert {(e.object_id, tuple(e.detail["fields"])) for e in edits} == {
        (a, ("status",)),
        (b, ("status", "superseded_by")),
    }


def test_a_stale_version_changes_nothing(cast):
    a, b = contradiction(cast)
    store.update_note(cast.principal(cast.owner), b, body="Sessions use signed JWTs.")  # B is now v2
    before = db_state()
    with pytest.raises(VersionConflict) as stale:
        store.resolve_conflict(cast.principal(cast.member), a, b, "a_supersedes_b", a_version=2, b_version=1)
    assert stale.value.details == {"current_version": 2, "expected_version": 1}
    assert db_state() == before
    store.resolve_conflict(cast.principal(cast.member), a, b, "a_supersedes_b", a_version=2, b_version=2)
    assert note(b).status == "superseded"


def test_resolving_twice_or_an_unrelated_pair_is_refused(cast):
    a, b = contradiction(cast)
    unrelated = save(cast, "Unrelated", "Nothing to see.")
    principal = cast.principal(cast.member)
    with pytest.raises(InvalidArgument, match="not in conflict"):
        store.resolve_conflict(principal, a, unrelated, "a_supersedes_b")
    store.resolve_conflict(principal, a, b, "both_true")
    with pytest.raises(InvalidArgument, match="already resolved"):
        store.resolve_conflict(principal, a, b, "a_supersedes_b")
    with pytest.raises(InvalidArgument, match="same note"):
        store.resolve_conflict(principal, a, a, "both_true")


@pytest.mark.parametrize(
    "arguments",
    [
        {"resolution": "a_wins"},
        {"resolution": None},
        {"a_version": 0},
        {"a_version": "2"},
        {"b": 7},
        {"b": "n_" + "x" * 60},
    ],
)
def test_bad_arguments_are_invalid(cast, arguments):
    a, b = contradiction(cast)
    call = {"a": a, "b": b, "resolution": "both_true", **arguments}
    with pytest.raises(InvalidArgument):
        store.resolve_conflict(cast.principal(cast.member), **call)


def test_foreign_notes_are_not_found_and_viewers_are_forbidden(cast):
    a, b = contradiction(cast)
    theirs_a, theirs_b = contradiction(cast, project="lab", user=cast.outsider)
    before = db_state()
    with pytest.raises(NotFound):
        store.resolve_conflict(cast.principal(cast.member), theirs_a, theirs_b, "both_true")
    with pytest.raises(NotFound):
        store.resolve_conflict(cast.principal(cast.outsider), a, b, "both_true")
    with pytest.raises(NotFound):  # a key scoped to another project sees neither note
        store.resolve_conflict(cast.principal(cast.member, project=cast.website), a, b, "both_true")
    with pytest.raises(Forbidden):
        store.resolve_conflict(cast.principal(cast.viewer), a, b, "both_true")
    with pytest.raises(Forbidden):
        store.resolve_conflict(cast.principal(cast.member, read_only=True), a, b, "both_true")
    assert db_state() == before
    assert [c["a"]["id"] for c in store.list_conflicts(cast.principal(cast.outsider))["conflicts"]] == [
        theirs_a
    ]
    with pytest.raises(NotFound):
        store.list_conflicts(cast.principal(cast.outsider), project="payments")


def test_a_private_note_stays_out_of_other_peoples_queues(cast):
    mine = save(cast, "My doubt", "Private doubt.", user=cast.owner, visibility="private", status="disputed")
    shared = save(cast, "Shared", "Shared text.", user=cast.owner)
    store.relate_notes(cast.principal(cast.owner), mine, shared, "contradicts")
    assert store.list_conflicts(cast.principal(cast.owner))["total"] == 1
    assert store.list_conflicts(cast.principal(cast.member))["total"] == 0
    with pytest.raises(NotFound):
        store.resolve_conflict(cast.principal(cast.member), mine, shared, "both_true")


@pytest.fixture
def staff(db):
    return User.objects.create_superuser("staff@knownbase.test", "a long staff password")


def test_a_staff_principal_moderates_shared_notes_only(cast, staff):
    a, b = contradiction(cast)
    private = save(cast, "Private", "Mine.", user=cast.owner, visibility="private", status="disputed")
    principal = principal_for_staff(staff, cast.acme.pk)
    assert principal is not None and principal.auth_method == AuthMethod.STAFF
    assert principal.client_name == "admin" and principal.may_staff("moderate")

    assert [c["a"]["id"] for c in store.list_conflicts(principal)["conflicts"]] == [a]
    with pytest.raises(NotFound):
        store.resolve_conflict(principal, private, None, "a_historical")
    store.resolve_conflict(principal, a, b, "b_historical")
    resolved = AuditEvent.objects.get(action="conflict.resolved")
    assert (resolved.actor, resolved.team, resolved.auth_method, resolved.client) == (
        staff,
        cast.acme,
        "staff",
        "admin",
    )
    assert note(a).last_edited_by == staff and (note(a).status, note(b).status) == ("current", "historical")


def test_staff_may_call_only_the_moderation_functions(cast, staff):
    a = save(cast, "Shared", "Shared text.")
    principal = principal_for_staff(staff, cast.acme.pk)
    assert principal is not None
    with pytest.raises(Forbidden):
        store.get_note(principal, a)
    with pytest.raises(Forbidden):
        store.export_project(principal, "payments")
    with pytest.raises(Forbidden):
        store.delete_note(principal, a)
    store.update_note(principal, a, status="historical")
    store.delete_note(cast.principal(cast.member), a)
    store.restore_note(principal, a)
    assert note(a).deleted_at is None and note(a).status == "historical"


def test_only_active_staff_get_a_staff_principal(cast, staff):
    assert principal_for_staff(cast.owner, cast.acme.pk) is None
    assert principal_for_staff(staff, 0) is None
    staff.is_active = False
    assert principal_for_staff(staff, cast.acme.pk) is None
