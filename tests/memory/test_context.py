"""get_context: sections, ranking, budgets from tiny to large, degrade-then-drop, reinforcement."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.errors import InvalidArgument, NotFound
from memory import store
from memory.models import Note, NoteLink
from memory.notes import reinforcement
from memory.recall.context import SECTION_ORDER
from memory.recall.tokens import estimate_tokens


def add(cast, title, body, type="note", status="current", project=None, **fields):
    return Note.objects.create(
        team=cast.acme,
        project=project or cast.payments,
        author=cast.member,
        title=title,
        body=body,
        type=type,
        status=status,
        content_hash=title,
        **fields,
    )


@pytest.fixture
def project_notes(cast):
    cast.payments.summary = "Card payments for the shop."
    cast.payments.agent_instructions = "Run make test before pushing."
    cast.payments.save()
    return {
        "constraint": add(
            cast, "Amounts are integer cents", "Never use floats for money. " * 20, "constraint"
        ),
        "decision": add(
            cast, "Stripe is the processor", "We chose Stripe over Adyen for its API.", "decision"
        ),
        "architecture": add(
            cast, "Webhook worker", "Webhooks land in a queue; a Celery worker applies them.", "architecture"
        ),
        "failed": add(
            cast, "Polling Stripe failed", "Polling hit rate limits within a day.", "failed_approach"
        ),
        "status": add(cast, "Refunds half done", "Refund API exists; UI missing.", "status"),
        "task": add(cast, "Add refund UI", "Button on the order page.", "task"),
        "fact": add(cast, "Sandbox keys", "The sandbox account is shared with QA.", "fact"),
        "disputed": add(cast, "Retries are 3", "Webhook retries happen 3 times.", "fact", status="disputed"),
        "superseded": add(cast, "Adyen is the processor", "We chose Adyen.", "decision", status="superseded"),
        "historical": add(cast, "Old checkout", "The old checkout used PayPal.", "note", status="historical"),
    }


def context(cast, who=None, **kwargs):
    return store.get_context(cast.principal(who or cast.member), "payments", **kwargs)


def section_ids(result, section):
    return [entry["id"] for entry in result["sections"].get(section, [])]


def shown_ids(result):
    return [entry["id"] for entries in result["sections"].values() for entry in entries]


def test_sections_in_fixed_order_with_the_right_notes(cast, project_notes):
    result = context(cast, max_tokens=5000)
    # Without a query there is no `relevant` section, and empty sections are left out.
    assert list(result["sections"]) == [s for s in SECTION_ORDER if s != "relevant"]
    n = project_notes
    assert section_ids(result, "constraints") == [n["constraint"].public_id]
    assert section_ids(result, "conflicts") == [n["disputed"].public_id]
    assert section_ids(result, "decisions") == [n["decision"].public_id]
    assert section_ids(result, "architecture") == [n["architecture"].public_id]
    assert section_ids(result, "failed_approaches") == [n["failed"].public_id]
    assert section_ids(result, "status") == [n["status"].public_id]
    assert section_ids(result, "open_items") == [n["task"].public_id]
    assert section_ids(result, "recent_changes") == [n["fact"].public_id]
    assert result["project"] == {
        "slug": "payments",
        "name": "Payments API",
        "summary": "Card payments for the shop.",
        "agent_instructions": "Run make test before pushing.",
    }
    assert result["sections"]["decisions"][0] == {
        "id": n["decision"].public_id,
        "title": "Stripe is the processor",
        "excerpt": "We chose Stripe over Adyen for its API.",
    }
    assert set(result["meta"]) == {
        "budget", "estimated_tokens", "detail", "omitted", "omitted_count", "search_mode"
    }  # fmt: skip


def test_superseded_historical_and_private_notes_are_excluded(cast, project_notes):
    private = Note.objects.create(
        team=cast.acme, project=cast.payments, author=cast.owner, title="Scratch", body="x",
        content_hash="p", visibility="private",
    )  # fmt: skip
    selected = set(shown_ids(context(cast, max_tokens=5000)))
    assert project_notes["superseded"].public_id not in selected
    assert project_notes["historical"].public_id not in selected
    assert private.public_id not in selected
    assert private.public_id in set(shown_ids(context(cast, who=cast.owner, max_tokens=5000)))


def test_unfinished_supersession_is_a_conflict(cast, project_notes):
    newer = add(cast, "Adyen again", "We moved back to Adyen.", "decision")
    project_notes["decision"].superseded_by = newer
    project_notes["decision"].save()
    result = context(cast, max_tokens=5000)
    conflicts = {e["id"]: e for e in result["sections"]["conflicts"]}
    assert project_notes["decision"].public_id in conflicts
    assert newer.public_id in conflicts[project_notes["decision"].public_id]["reason"]


def test_query_fills_the_relevant_section(cast, project_notes):
    extra = add(cast, "PCI scope", "Card numbers never touch our servers; Stripe Elements collects them.")
    result = context(cast, query="card numbers PCI", max_tokens=5000)
    assert extra.public_id in section_ids(result, "relevant")
    assert result["meta"]["search_mode"] == "vector"  # hybrid: vector candidates fused with full-text


@pytest.mark.parametrize("budget", [100, 150, 200, 300, 500, 800, 1200, 2000, 5000, 20000])
def test_never_over_budget(cast, project_notes, budget):
    for i in range(40):
        add(cast, f"Decision {i} about queues", "Queues and workers. " * (i % 7 + 1) * 10, "decision")
    result = context(cast, max_tokens=budget, query="queues workers")
    text = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
    assert result["meta"]["budget"] == budget
    assert result["meta"]["estimated_tokens"] == estimate_tokens(text)
    assert estimate_tokens(text) <= budget


def test_conflicts_are_charged_before_a_verbose_constraint(cast, project_notes):
    add(cast, "Huge constraint", "A very long constraint. " * 400, "constraint", importance=1.0)
    result = context(cast, max_tokens=300)
    assert section_ids(result, "conflicts") == [project_notes["disputed"].public_id]


def test_entries_degrade_to_short_excerpts_before_being_dropped(cast, project_notes):
    constraint = project_notes["constraint"].public_id
    Note.objects.filter(public_id=constraint).update(body="Never use floats for money. " * 200)
    roomy = context(cast, detail="deep", max_tokens=20000)
    assert len(roomy["sections"]["constraints"][0]["excerpt"]) > 500
    # A deep excerpt of the constraint (~270 tokens) cannot fit in 400 after the header and the
    # conflict; its short form can, and later entries are dropped and reported.
    tight = context(cast, detail="deep", max_tokens=400)
    shown = {e["id"]: e for section in tight["sections"].values() for e in section}
    assert len(shown[constraint]["excerpt"]) <= 80
    omitted = {o["id"] for o in tight["meta"]["omitted"]}
    assert omitted and tight["meta"]["omitted_count"] >= len(omitted)
    assert set(shown).isdisjoint(omitted)


def test_budget_precedence(cast, project_notes):
    assert context(cast)["meta"]["budget"] == cast.plan.default_context_budget
    assert context(cast, detail="lean")["meta"]["budget"] == 800
    assert context(cast, detail="deep")["meta"]["budget"] == 6000
    cast.payments.default_context_budget = 1500
    cast.payments.save()
    assert context(cast, detail="deep")["meta"]["budget"] == 1500
    assert context(cast, detail="deep", max_tokens=700)["meta"]["budget"] == 700


def test_detail_levels_change_excerpt_length(cast, project_notes):
    lean = context(cast, detail="lean", max_tokens=20000)["sections"]["constraints"][0]["excerpt"]
    deep = context(cast, detail="deep", max_tokens=20000)["sections"]["constraints"][0]["excerpt"]
    assert len(lean) <= 160 < len(deep)


def test_ranking_prefers_important_recent_linked_notes(cast):
    now = timezone.now()
    old = add(cast, "Old decision", "x", "decision", importance=0.5, updated_at=now - timedelta(days=400))
    fresh = add(cast, "Fresh decision", "x", "decision", importance=0.5, updated_at=now)
    important = add(
        cast, "Important decision", "x", "decision", importance=1.0, updated_at=now - timedelta(days=400)
    )
    linked = add(
        cast, "Linked decision", "x", "decision", importance=0.5, updated_at=now - timedelta(days=400)
    )
    for i in range(3):
        NoteLink.objects.create(from_note=add(cast, f"ref {i}", "y"), to_note=linked, kind="depends_on")
    order = section_ids(context(cast, max_tokens=5000), "decisions")
    assert order.index(fresh.public_id) < order.index(old.public_id)
    assert order.index(important.public_id) < order.index(old.public_id)
    assert order.index(linked.public_id) < order.index(old.public_id)


def test_returned_notes_are_reinforced_after_a_flush(cast, project_notes):
    result = context(cast, max_tokens=5000)
    assert not Note.objects.filter(access_count__gt=0).exists()  # the read itself wrote nothing
    reinforcement.flush()
    counts = dict(
        Note.objects.filter(public_id__in=shown_ids(result)).values_list("public_id", "access_count")
    )
    assert counts and set(counts.values()) == {1}
    assert Note.objects.get(pk=project_notes["superseded"].pk).access_count == 0


def test_types_restrict_sections(cast, project_notes):
    result = context(cast, types=["decision"], max_tokens=5000)
    assert list(result["sections"]) == ["decisions"]
    assert shown_ids(result) == [project_notes["decision"].public_id]


@pytest.mark.parametrize(
    "kwargs",
    [{"detail": "huge"}, {"max_tokens": 10}, {"max_tokens": 10**6}, {"max_tokens": "big"}, {"types": ["x"]}],
)
def test_bad_input(cast, kwargs):
    with pytest.raises(InvalidArgument):
        context(cast, **kwargs)


def test_outsider_and_scoped_keys_get_not_found(cast):
    with pytest.raises(NotFound):
        store.get_context(cast.principal(cast.outsider), "payments")
    with pytest.raises(NotFound):
        store.get_context(cast.principal(cast.member, project=cast.website), "payments")


def test_contradicts_links_between_visible_notes_are_conflicts(cast, project_notes):
    a = project_notes["decision"]
    b = add(cast, "Adyen is better", "We should move to Adyen.", "decision")
    hidden = Note.objects.create(
        team=cast.acme, project=cast.payments, author=cast.owner, title="Private view", body="x",
        content_hash="hv", visibility="private",
    )  # fmt: skip
    NoteLink.objects.create(from_note=a, to_note=b, kind="contradicts")
    NoteLink.objects.create(from_note=project_notes["architecture"], to_note=hidden, kind="contradicts")
    conflicts = {e["id"]: e for e in context(cast, max_tokens=5000)["sections"]["conflicts"]}
    assert conflicts[a.public_id]["reason"] == f"contradicts {b.public_id}"
    # A link into a note the caller cannot see reveals nothing.
    assert project_notes["architecture"].public_id not in conflicts
