"""The gate at the store boundary: refusal, its audit row, fail-closed, team rules."""

from __future__ import annotations

import json

import pytest

from accounts.errors import Forbidden, InvalidArgument, Screened
from accounts.models import AuditEvent
from memory import store
from memory.models import IdempotencyRecord, Note, NoteRevision, Project, ScreeningRule
from memory.screening import guard as enforce_module

SECRET = "AKIAZ7QH3M2XLW5RT4NB"


def test_refusal_names_field_and_family_and_writes_only_an_audit_row(cast):
    before = (Note.objects.count(), NoteRevision.objects.count(), IdempotencyRecord.objects.count())
    with pytest.raises(Screened) as refused:
        store.remember(cast.principal(cast.member), "payments", f"Deploy with {SECRET}", idempotency_key="k1")
    error = refused.value.as_dict()
    assert error["code"] == "screened" and error["field"] == "content" and error["family"] == "aws_access_key"
    assert SECRET not in json.dumps(error)
    assert (Note.objects.count(), NoteRevision.objects.count(), IdempotencyRecord.objects.count()) == before
    event = AuditEvent.objects.get(action="write.screened")
    assert (event.actor_id, event.team_id, event.client) == (cast.member.pk, cast.acme.pk, "pytest")
    assert event.detail == {"tool": "remember", "field": "content", "family": "aws_access_key"}
    assert SECRET not in json.dumps(event.detail) + event.object_id


def test_edits_are_screened_and_leave_the_note_untouched(cast):
    principal = cast.principal(cast.member)
    note_id = store.create_note(principal, project="payments", title="T", body="fine")["note"]["id"]
    for call in (
        lambda: store.patch_note(principal, note_id, "append", f"key {SECRET}"),
        lambda: store.update_note(principal, id=note_id, tags=["x", SECRET]),
        lambda: store.update_note(principal, id=note_id, title="postgres://a:Sup3rS3cret@db/x"),
        lambda: store.rename_project(principal, "payments", name="ghp_16C7e42F292c6912E7710c838347Ae178B4a"),
        lambda: store.delete_note(principal, note_id, reason="4242 4242 4242 4242"),
    ):
        with pytest.raises(Screened):
            call()
    note = Note.objects.get(public_id=note_id)
    assert (note.version, note.body, note.deleted_at) == (1, "fine", None)
    assert Project.objects.get(pk=cast.payments.pk).name == "Payments API"


def test_the_gate_fails_closed(cast, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("pattern engine exploded")

    monkeypatch.setattr(enforce_module, "screen", broken)
    with pytest.raises(Screened) as refused:
        store.remember(cast.principal(cast.member), "payments", "perfectly harmless")
    assert refused.value.details["family"] == "screening_error"
    assert not Note.objects.exists()


def test_team_pattern_refuses_and_allow_list_lets_through(cast):
    owner = cast.principal(cast.owner)
    store.add_screening_rule(owner, "pattern", "customer ids", r"\bCUST-\d{6}\b")
    with pytest.raises(Screened) as refused:
        store.remember(cast.principal(cast.member), "payments", "Refund CUST-123456 manually")
    assert refused.value.details["family"] == "custom:customer ids"
    # Other teams are not affected by acme's pattern.
    store.remember(cast.principal(cast.outsider), "lab", "Refund CUST-123456 manually")

    store.add_screening_rule(owner, "allow", "sandbox key", SECRET)
    result = store.remember(
        cast.principal(cast.member), "payments", f"The shared sandbox uses {SECRET} (no permissions)"
    )
    assert result["status"] == "created"
    listed = store.list_screening_rules(owner)
    assert SECRET not in json.dumps(listed)
    assert {r["kind"] for r in listed["rules"]} == {"pattern", "allow"}


def test_rules_are_for_owners_and_admins(cast):
    for principal in (
        cast.principal(cast.member),
        cast.principal(cast.viewer),
        cast.principal(cast.owner, project=cast.payments),
    ):
        with pytest.raises(Forbidden):
            store.add_screening_rule(principal, "pattern", "x", "abc")
        with pytest.raises(Forbidden):
            store.list_screening_rules(principal)
    assert not ScreeningRule.objects.exists()


@pytest.mark.parametrize("pattern", ["(", "(a+)+$", ".*", ""])
def test_bad_patterns_are_refused(cast, pattern):
    with pytest.raises(InvalidArgument):
        store.add_screening_rule(cast.principal(cast.owner), "pattern", "bad", pattern)


def test_rule_changes_are_audited_and_deletable(cast):
    owner = cast.principal(cast.owner)
    rule = store.add_screening_rule(owner, "pattern", "codes", r"\bZZ-\d{4}\b")["rule"]
    store.delete_screening_rule(owner, rule["id"])
    actions = list(AuditEvent.objects.filter(team=cast.acme).values_list("action", flat=True))
    assert "screening.rule_added" in actions and "screening.rule_deleted" in actions


def test_more_text_than_the_gate_reads_is_invalid_argument_not_screened(cast):
    from memory.screening import gate

    huge = "word " * (gate.SCREEN_CEILING // 5 + 1)
    with pytest.raises(InvalidArgument):
        store.remember(cast.principal(cast.member), "payments", huge)
    assert not Note.objects.filter(project=cast.payments).exists()
