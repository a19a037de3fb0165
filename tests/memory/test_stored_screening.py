"""The gate judges each value in the form it will be stored (issue 9, points 1, 3c and 3d).

The store lower-cases tags and turns their spaces into hyphens, derives titles and slugs, joins a
patch with the current body and assembles a checkpoint's handoff: a value harmless as sent can be a
secret once stored. Each test sends pieces the gate passes as sent and expects the stored form to be
refused, nothing written, and the refusal audited although the write's transaction rolled back.
"""

from __future__ import annotations

import json

import pytest

from accounts.errors import Screened
from accounts.models import AuditEvent
from memory import store
from memory.models import Note, NoteRevision, Project, ScreeningRule
from memory.screening.gate import screen

# Tags as an agent might send them; each is lower-cased and hyphenated into a live-looking secret.
TAGS = {
    "219 09 9999": "us_ssn",
    "SK_LIVE_51HxYzAbCdEfGhIjKlMnOpQr": "stripe_key",
    "GHP_16C7E42F292C6912E7710C838347AE178B4A": "github_token",
    "NPM_A1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6Q7R8": "npm_token",
    "WHSEC_MFKQ9R8GKYQRTWJUPD8ILPZIO2LALASW": "stripe_key",
    "xoxb 123456789012 1234567890123 AbCdEfGhIjKlMnOpQrStUvWx": "slack_token",
    "glpat xYz12AbC34dEf56GhI78j": "gitlab_token",
    "sk proj-4fG7hJ9kL2mN5pQ8rS1tU4vW7xY0zA3bC6dE9fG2hJ5kL8": "ai_provider_key",
}


def refusal_audits(field: str) -> list[dict[str, str]]:
    return [
        e.detail for e in AuditEvent.objects.filter(action="write.screened") if e.detail["field"] == field
    ]


@pytest.fixture
def note_id(cast):
    principal = cast.principal(cast.member)
    return store.create_note(
        principal, project="payments", title="Keys", body="Rotation notes.", tags=["legacy"]
    )["note"]["id"]


@pytest.mark.parametrize("tag", list(TAGS))
def test_the_tags_as_sent_pass_the_gate(tag):
    # Otherwise the tests below would prove nothing about the stored form.
    assert screen({"tags": [tag]}) is None


@pytest.mark.parametrize(("tag", "family"), list(TAGS.items()))
def test_a_tag_that_normalises_into_a_secret_is_refused_on_every_path(cast, note_id, tag, family):
    principal = cast.principal(cast.member)
    notes_before = Note.objects.count()
    for call in (
        lambda: store.remember(principal, "payments", "Tagged fact about retries", tags=[tag]),
        lambda: store.create_note(principal, "payments", "Tagged", "Tagged body", tags=["ok", tag]),
        lambda: store.update_note(principal, id=note_id, tags=[tag]),
    ):
        with pytest.raises(Screened) as refused:
            call()
        assert refused.value.details["family"] == family
        assert tag not in json.dumps(refused.value.as_dict())
    assert Note.objects.count() == notes_before
    note = Note.objects.get(public_id=note_id)
    assert (note.version, note.tags) == (1, ["legacy"])
    assert not NoteRevision.objects.filter(note=note).exists()
    audits = list(AuditEvent.objects.filter(action="write.screened").values_list("detail", flat=True))
    assert sorted(a["tool"] for a in audits) == ["create_note", "remember", "update_note"]
    assert {a["family"] for a in audits} == {family}


def test_ordinary_tags_are_still_normalised_and_stored(cast):
    note = store.remember(
        cast.principal(cast.member), "payments", "Refunds settle in two days", tags=["Payments API", "SLA 2d"]
    )["note"]
    assert note["tags"] == ["payments-api", "sla-2d"]


def test_rename_tag_to_a_tag_that_normalises_into_a_secret_is_refused(cast, note_id):
    with pytest.raises(Screened) as refused:
        store.rename_tag(
            cast.principal(cast.member), "payments", "legacy", "RK_TEST_4eC39HqLyjWDarjtT1zdp7dc"
        )
    assert refused.value.details == {"field": "new", "family": "stripe_key"}
    note = Note.objects.get(public_id=note_id)
    assert (note.version, note.tags) == (1, ["legacy"])
    assert not AuditEvent.objects.filter(action="tag.renamed").exists()
    assert refusal_audits("new") == [{"tool": "rename_tag", "field": "new", "family": "stripe_key"}]


def test_a_project_name_whose_slug_is_a_secret_is_refused(cast):
    projects = Project.objects.count()
    with pytest.raises(Screened) as refused:
        store.create_project(cast.principal(cast.owner), "123 - 45 - 6789")
    assert refused.value.details == {"field": "slug", "family": "us_ssn"}
    assert Project.objects.count() == projects
    assert refusal_audits("slug") == [{"tool": "create_project", "field": "slug", "family": "us_ssn"}]
    # The same shape with words around it gives an ordinary slug.
    assert store.create_project(cast.principal(cast.owner), "Team 123 - Q4 plan")["project"]["slug"] == (
        "team-123-q4-plan"
    )


@pytest.mark.parametrize(
    "content",
    [
        # The title is cut right after the number (the body's longer digit run is no SSN). A leading
        # marker the title drops ("-219-09-9999 …") is now refused as sent, so it proves nothing here.
        f"Ref{'x' * 66}219-09-999900000000 and the rest.",
    ],
    ids=["cut-off"],
)
def test_a_derived_title_that_is_a_secret_is_refused(cast, content):
    assert screen({"content": content}) is None
    with pytest.raises(Screened) as refused:
        store.remember(cast.principal(cast.member), "payments", content)
    assert refused.value.details == {"field": "title", "family": "us_ssn"}
    assert not Note.objects.exists()


def test_a_handoff_title_that_is_a_secret_is_refused(cast):
    summary = f"Ref{'x' * 56}219-09-999900000000 handed over to support."  # a handoff title is cut at 70
    assert screen({"summary": summary}) is None
    with pytest.raises(Screened) as refused:
        store.checkpoint(cast.principal(cast.member), "payments", summary=summary)
    assert refused.value.details == {"field": "title", "family": "us_ssn"}
    assert not Note.objects.exists()


def test_a_handoff_body_assembled_from_harmless_items_is_screened(cast):
    ScreeningRule.objects.create(team=cast.acme, kind="pattern", name="customer_id", value=r"ACME\W*\d{6}")
    with pytest.raises(Screened) as refused:
        store.checkpoint(
            cast.principal(cast.member),
            "payments",
            summary="Migrated the enterprise accounts",
            decisions=["Customer ACME-", "552901 moves to the new plan"],
        )
    assert refused.value.details == {"field": "body", "family": "custom:customer_id"}
    assert not Note.objects.exists()


def test_patch_replace_cannot_assemble_a_key_from_harmless_pieces(cast):
    principal = cast.principal(cast.member)
    body = "The old id was AKIA_Z7QW3RT5YU8IOP2L, rotated in May."
    note_id = store.create_note(principal, "payments", "Rotation", body)["note"]["id"]
    with pytest.raises(Screened) as refused:
        store.patch_note(principal, note_id, "replace", "AKIA", find="AKIA_")
    assert refused.value.details == {"field": "body", "family": "aws_access_key"}
    note = Note.objects.get(public_id=note_id)
    assert (note.version, note.body) == (1, body)
    assert refusal_audits("body") == [{"tool": "patch_note", "field": "body", "family": "aws_access_key"}]


@pytest.mark.parametrize(
    ("op", "body", "text"),
    [
        # The patterns do not join an assignment across the blank line a patch inserts, so a team
        # pattern that spans white space proves the combined body is what gets judged.
        ("append", "Customer ledger ACME", "481516 is the account on file."),
        ("prepend", "481516 is the account on file.", "Customer ledger ACME"),
    ],
)
def test_append_and_prepend_are_screened_with_the_current_body(cast, op, body, text):
    principal = cast.principal(cast.member)
    store.add_screening_rule(cast.principal(cast.owner), "pattern", "acme-account", r"ACME\W*\d{6}")
    note_id = store.create_note(principal, "payments", "Ledger", body)["note"]["id"]
    with pytest.raises(Screened) as refused:
        store.patch_note(principal, note_id, op, text)
    assert refused.value.details == {"field": "body", "family": "custom:acme-account"}
    assert Note.objects.get(public_id=note_id).body == body


def test_a_pattern_rule_that_is_itself_a_secret_is_refused_and_audited(cast):
    # Screened inside the write's transaction: before, its audit row was rolled back with the write.
    with pytest.raises(Screened):
        store.add_screening_rule(cast.principal(cast.owner), "pattern", "leaked", "AKIAZ7QW3RT5YU8IOP2L")
    assert not ScreeningRule.objects.exists()
    assert refusal_audits("value") == [
        {"tool": "add_screening_rule", "field": "value", "family": "aws_access_key"}
    ]


@pytest.mark.parametrize("tag", ["t-4111 1111 1111 1111", "219 09 9999"])
def test_the_issues_reproductions_are_refused_and_nothing_is_stored(cast, tag):
    with pytest.raises(Screened):
        store.create_note(cast.principal(cast.member), "payments", "Card test", "body", tags=[tag])
    assert not Note.objects.filter(title="Card test").exists()
