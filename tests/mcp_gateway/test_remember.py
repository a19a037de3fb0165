from __future__ import annotations

from accounts.models import AuditEvent
from memory.models import IdempotencyRecord, Note, NoteStatus
from tests.mcp_gateway.state import NOTE_FIELDS, db_state, save, text_matches_structured

OPAQUE = "Sessions use opaque tokens instead of JWTs, stored server side in Redis."
JWT = "Sessions use JWTs instead of opaque tokens, stored server side in Redis."


def test_created_with_a_derived_title(mcp, cast):
    result = mcp.call(
        cast.key(cast.member),
        "remember",
        {"project": "payments", "content": OPAQUE, "type": "decision", "tags": ["auth"]},
    )
    assert not result.is_error, result.structured_content
    assert text_matches_structured(result)
    outcome = result.structured_content
    assert outcome["status"] == "created"
    note = outcome["note"]
    assert set(note) >= NOTE_FIELDS
    assert (note["project"], note["type"], note["status"], note["version"]) == (
        "payments",
        "decision",
        "current",
        1,
    )
    assert note["tags"] == ["auth"]
    assert note["title"].startswith("Sessions use opaque tokens")
    # A decision asks the model to review its same-type neighbours.
    assert outcome["review_required"] is True
    stored = Note.objects.get(public_id=note["id"])
    assert (stored.body, stored.author_id, stored.project_id) == (OPAQUE, cast.member.pk, cast.payments.pk)


def test_duplicate_writes_nothing(local_mcp, cast):
    key = cast.key(cast.member)
    first = local_mcp.ok(key, "remember", {"project": "payments", "content": OPAQUE})
    before = db_state()
    again = local_mcp.ok(key, "remember", {"project": "payments", "content": "  " + OPAQUE.upper() + " "})
    assert again["status"] == "duplicate"
    assert again["note"]["id"] == first["note"]["id"]
    assert db_state() == before


def test_conflict_stores_nothing_until_resolved_with_supersedes(local_mcp, cast):
    key = cast.key(cast.member)
    old = local_mcp.ok(key, "remember", {"project": "payments", "content": OPAQUE, "type": "decision"})[
        "note"
    ]
    before = db_state()
    conflict = local_mcp.ok(key, "remember", {"project": "payments", "content": JWT, "type": "decision"})
    assert conflict["status"] == "conflict"
    assert conflict["note"]["id"] == old["id"]
    assert old["id"] in conflict["message"]
    assert "supersedes" in conflict["message"]
    assert "force" in conflict["message"]
    assert db_state() == before

    resolved = local_mcp.ok(
        key,
        "remember",
        {"project": "payments", "content": JWT, "type": "decision", "supersedes": [old["id"]]},
    )
    assert resolved["status"] == "created"
    assert resolved["note"]["supersedes"] == [old["id"]]
    replaced = Note.objects.get(public_id=old["id"])
    assert replaced.status == NoteStatus.SUPERSEDED
    assert replaced.superseded_by is not None
    assert replaced.superseded_by.public_id == resolved["note"]["id"]


def test_force_keeps_both(local_mcp, cast):
    key = cast.key(cast.member)
    local_mcp.ok(key, "remember", {"project": "payments", "content": OPAQUE})
    forced = local_mcp.ok(key, "remember", {"project": "payments", "content": JWT, "force": True})
    assert forced["status"] == "created"
    assert Note.objects.count() == 2


def test_retry_with_the_idempotency_key_returns_the_first_result(local_mcp, cast):
    key = cast.key(cast.member)
    arguments = {"project": "payments", "content": OPAQUE, "idempotency_key": "retry-1"}
    first = local_mcp.ok(key, "remember", arguments)
    before = db_state()
    retry = local_mcp.ok(key, "remember", arguments)
    assert retry == first
    assert retry["status"] == "created"  # not "duplicate": the first call's answer, replayed
    assert db_state() == before
    assert IdempotencyRecord.objects.count() == 1


def test_an_idempotency_key_belongs_to_one_project_and_one_request(local_mcp, cast):
    # The reproduction: a key narrowed to payments reuses a key its user first sent to website.
    website = local_mcp.ok(
        cast.key(cast.member), "remember", {"project": "website", "content": JWT, "idempotency_key": "k-9"}
    )
    payments_key = cast.key(cast.member, project=cast.payments)
    mine = local_mcp.ok(
        payments_key, "remember", {"project": "payments", "content": OPAQUE, "idempotency_key": "k-9"}
    )
    assert mine["status"] == "created" and mine["note"]["project"] == "payments"
    assert mine["note"]["id"] != website["note"]["id"]
    assert Note.objects.get(public_id=mine["note"]["id"]).body == OPAQUE
    # The same key with another request is refused, and nothing is written.
    before = db_state()
    error = local_mcp.error(
        payments_key,
        "remember",
        {"project": "payments", "content": "Refunds take 5 days.", "idempotency_key": "k-9"},
    )
    assert error["code"] == "invalid_argument" and "idempotency_key" in error["message"]
    assert db_state() == before


def test_read_only_callers_are_forbidden(local_mcp, cast):
    save(cast, "Existing", OPAQUE)
    before = db_state()
    for key in (cast.key(cast.viewer), cast.key(cast.member, read_only=True)):
        error = local_mcp.error(key, "remember", {"project": "payments", "content": "Refunds take 5 days."})
        assert error["code"] == "forbidden"
    assert db_state() == before


def test_out_of_scope_projects_and_ids_are_not_found(local_mcp, cast):
    acme_note = save(cast, "Existing", OPAQUE)
    lab_note = save(cast, "Lab", "Lab body.", user=cast.outsider, project="lab")
    before = db_state()
    cases = [
        (cast.key(cast.outsider), {"project": "payments", "content": "Refunds take 5 days."}),
        (cast.key(cast.outsider), {"project": "lab", "content": JWT, "supersedes": [acme_note]}),
        (cast.key(cast.member, project=cast.website), {"project": "payments", "content": "Refunds."}),
        (cast.key(cast.member), {"project": "payments", "content": JWT, "supersedes": [lab_note]}),
    ]
    for key, arguments in cases:
        error = local_mcp.error(key, "remember", arguments)
        assert error["code"] == "not_found", arguments
    assert db_state() == before


def test_bad_input_is_invalid_argument(local_mcp, cast):
    key = cast.key(cast.member)
    for arguments in [
        {},
        {"project": "payments"},
        {"project": "payments", "content": ""},
        {"project": "payments", "content": "   "},
        {"project": "payments", "content": 42},
        {"project": "payments", "content": "x" * 50001},
        {"project": "payments", "content": "ok", "type": "rumour"},
        {"project": "payments", "content": "ok", "importance": 1.5},
        {"project": "payments", "content": "ok", "tags": "auth"},
        {"project": "payments", "content": "ok", "tags": ["Not a tag!"]},
        {"project": "payments", "content": "ok", "visibility": "public"},
        {"project": "payments", "content": "ok", "supersedes": "n_1"},
        {"project": "payments", "content": "ok", "idempotency_key": ""},
        {"project": "payments", "content": "ok", "priority": "high"},
    ]:
        result = local_mcp.call(key, "remember", arguments)
        assert result.is_error, arguments
        assert result.structured_content["error"]["code"] == "invalid_argument", arguments
    assert not Note.objects.exists()


def test_the_note_and_its_audit_row_name_the_real_client(mcp, cast):
    note = mcp.ok(cast.key(cast.member), "remember", {"project": "payments", "content": OPAQUE})["note"]
    # The official client's clientInfo name rides each request; "api-key" was the old placeholder.
    assert note["source"] == "mcp"
    event = AuditEvent.objects.get(action="note.created", object_id=note["id"])
    assert (event.client, event.auth_method) == ("mcp", "api_key")
