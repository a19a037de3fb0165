"""get_context per token: what an entry carries, empty sections, the omitted list, and how a query
shares the budget (the notes it is about are never pushed out by unrelated ones)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from memory import store
from memory.models import Note
from memory.recall.context import DETAIL_LEVELS, PACKING_ORDER
from memory.recall.packing import excerpt_beyond_title
from memory.recall.tokens import estimate_json_tokens, estimate_tokens
from memory.validation import derive_title
from tests.memory.test_context import add, context, section_ids, shown_ids

BEFORE_RELEVANT = PACKING_ORDER[1 : PACKING_ORDER.index("relevant")]  # after conflicts


def full_excerpt(note: Note, detail: str = "balanced") -> str:
    return excerpt_beyond_title(note.title, note.body, DETAIL_LEVELS[detail].excerpt_chars)


@pytest.mark.parametrize(
    ("title", "body", "expected"),
    [
        ("Stripe is the processor", "We chose Stripe over Adyen.", "We chose Stripe over Adyen."),
        ("Webhooks queue", "Webhooks queue. A worker applies them.", "A worker applies them."),
        ("Web", "Webhooks land in a queue.", "Webhooks land in a queue."),  # whole words only
        ("Use cents", "# Use cents\n\nFloats lose money.", "Floats lose money."),
        ("Handoff: refunds half done", "Refunds half done: the UI is missing.", "the UI is missing."),
        ("Amounts are integer cents", "Amounts are integer cents.", ""),
    ],
)
def test_excerpt_does_not_repeat_the_title(title, body, expected):
    assert excerpt_beyond_title(title, body, 320) == expected


def test_a_title_derived_from_the_text_is_not_repeated_in_the_excerpt(cast):
    body = "Refunds go through the ledger service. The old refund endpoint is gone since March."
    add(cast, derive_title(body), body, "decision")
    add(cast, "Only a title", "Only a title.", "decision")
    entries = {e["title"]: e for e in context(cast, max_tokens=5000)["sections"]["decisions"]}
    assert entries["Refunds go through the ledger service"]["excerpt"] == (
        "The old refund endpoint is gone since March."
    )
    assert entries["Only a title"] == {"id": entries["Only a title"]["id"], "title": "Only a title"}


def test_entries_carry_type_status_and_deep_fields_only_where_they_say_something(cast):
    decision = add(cast, "Stripe", "We chose Stripe.", "decision")
    pending = add(cast, "Adyen later", "Maybe Adyen next year.", "decision", status="pending")
    disputed = add(cast, "Retries are 3", "Webhook retries happen 3 times.", "fact", status="disputed")
    fact = add(cast, "Sandbox keys", "The sandbox is shared with QA.", "fact")
    result = context(cast, max_tokens=5000)
    entries = {e["id"]: e for section in result["sections"].values() for e in section}
    assert entries[decision.public_id] == {
        "id": decision.public_id,
        "title": "Stripe",
        "excerpt": "We chose Stripe.",
    }
    assert entries[pending.public_id]["status"] == "pending" and "type" not in entries[pending.public_id]
    assert set(entries[disputed.public_id]) == {"id", "status", "title", "excerpt", "reason"}
    # recent_changes and relevant mix types, so their entries say theirs.
    assert section_ids(result, "recent_changes") == [fact.public_id]
    assert entries[fact.public_id]["type"] == "fact"
    with_query = context(cast, query="sandbox keys shared with QA", max_tokens=5000)
    assert all("type" in e for e in with_query["sections"]["relevant"])

    deep = context(cast, detail="deep", max_tokens=5000)
    deep_entry = deep["sections"]["decisions"][0]
    assert set(deep_entry) == {"id", "title", "excerpt", "score", "version", "updated_at"}
    assert deep_entry["version"] == 1 and isinstance(deep_entry["score"], float)


def test_empty_sections_are_left_out(cast):
    assert context(cast, max_tokens=500)["sections"] == {}
    decision = add(cast, "Stripe", "We chose Stripe.", "decision")
    assert context(cast, max_tokens=500)["sections"] == {
        "decisions": [{"id": decision.public_id, "title": "Stripe", "excerpt": "We chose Stripe."}]
    }


def test_omitted_count_is_the_total_and_omitted_lists_ids_while_they_fit(cast):
    for i in range(60):
        add(cast, f"Decision {i:02d} about the ledger", "Ledger rules. " * 30, "decision")
    # Balanced: ten decisions, and ten more as recent changes, are the candidates.
    roomy = context(cast, max_tokens=20000)
    assert len(shown_ids(roomy)) == 20 and roomy["meta"]["omitted_count"] == 0
    tight = context(cast, max_tokens=150)
    shown, meta = shown_ids(tight), tight["meta"]
    assert shown and meta["omitted_count"] == 20 - len(shown)
    assert len(meta["omitted"]) <= meta["omitted_count"]
    assert {o["id"] for o in meta["omitted"]}.isdisjoint(shown)
    assert meta["estimated_tokens"] <= 150


def test_without_a_query_entries_degrade_to_titles_before_being_dropped(cast):
    for i in range(10):
        add(cast, f"Constraint {i}", "Never break the ledger. " * 40, "constraint", importance=1.0 - i / 100)
    result = context(cast, max_tokens=300)
    constraints = result["sections"]["constraints"]
    # The first constraints keep excerpts, later ones are only titles; none is dropped while a title fits.
    assert "excerpt" in constraints[0]
    assert any("excerpt" not in entry for entry in constraints)
    assert result["meta"]["omitted_count"] == 10 - len(constraints)


@pytest.fixture
def page_of_constraints(cast):
    """A page of unrelated, important, recent constraints and an older decision that a query is about."""
    now = timezone.now()
    for i in range(12):
        add(
            cast,
            f"Constraint {i:02d}: keep the HTTP API backwards compatible",
            f"Rule {i}: clients in the field pin old versions, so no field is renamed or removed. " * 6,
            "constraint",
            importance=1.0,
        )
    return add(
        cast,
        "Invoice numbers come from a Postgres sequence",
        "Invoice numbers are allocated by the invoice_number_seq sequence in Postgres, never by counting "
        "rows, so that two concurrent checkouts can never share a number.",
        "decision",
        importance=0.2,
        updated_at=now - timedelta(days=200),
    )


def test_a_page_of_unrelated_constraints_does_not_push_out_the_decision_a_query_is_about(
    cast, page_of_constraints
):
    decision = page_of_constraints.public_id
    result = context(cast, query="how are invoice numbers allocated", max_tokens=600)
    assert result["meta"]["estimated_tokens"] <= 600
    relevant = {e["id"]: e for e in result["sections"]["relevant"]}
    assert decision in relevant
    # It is what the task is about, so it keeps its whole excerpt, and the constraints are all still
    # named (most of them by title only).
    assert relevant[decision]["excerpt"] == full_excerpt(page_of_constraints)
    assert relevant[decision]["type"] == "decision"
    constraints = set(Note.objects.filter(type="constraint").values_list("public_id", flat=True))
    assert constraints <= set(shown_ids(result))
    assert result["meta"]["omitted_count"] == 0


@pytest.mark.parametrize("budget", [200, 300, 450, 600, 900, 1500])
def test_unrelated_entries_are_titles_before_a_relevant_entry_is_cut(cast, page_of_constraints, budget):
    for i in range(8):
        add(cast, f"Invoice rule {i}", f"Invoice numbering detail {i}: gaps are allowed. " * 8, "fact")
    result = context(cast, query="invoice numbers sequence", max_tokens=budget)
    notes = {n.public_id: n for n in Note.objects.all()}
    relevant = result["sections"].get("relevant", [])
    omitted_relevant = [o for o in result["meta"]["omitted"] if o["section"] == "relevant"]
    cut = omitted_relevant or any(e.get("excerpt", "") != full_excerpt(notes[e["id"]]) for e in relevant)
    earlier = [e for section in BEFORE_RELEVANT for e in result["sections"].get(section, [])]
    assert relevant
    if cut:
        assert all("excerpt" not in entry for entry in earlier)
    assert result["meta"]["estimated_tokens"] <= budget


def test_the_relevant_section_keeps_a_third_of_the_budget(cast, page_of_constraints):
    for i in range(10):
        for kind in ("decision", "architecture", "failed_approach"):
            title = f"{kind[:8]} {i}: gRPC calls go through the sidecar proxy of a pod"
            add(cast, title, "Unrelated service wiring. " * 30, kind)
    for i in range(20):
        add(cast, f"Invoice rule {i}", f"Invoice numbering detail {i}: gaps are allowed. " * 12, "fact")
    budget = 900
    result = context(cast, query="invoice numbers sequence", max_tokens=budget)
    sections = result["sections"]
    room = (
        budget
        - estimate_json_tokens({**result, "sections": {}})
        - estimate_json_tokens(sections.get("conflicts", []))
    )
    relevant_tokens = estimate_json_tokens({"relevant": sections["relevant"]})
    earlier_tokens = sum(estimate_json_tokens({s: sections[s]}) for s in BEFORE_RELEVANT if s in sections)
    # Unrelated sections alone would fill the budget; they stop at two thirds of what is left after
    # the header, and `relevant` uses its third (less at most one entry's excerpt it could not fit).
    assert earlier_tokens <= room * 2 / 3 + 2
    assert relevant_tokens >= room / 3 - DETAIL_LEVELS["balanced"].excerpt_chars / 4


def test_a_query_orders_each_section_by_relevance_as_well_as_importance(cast):
    # Lean: the ten best hits form `relevant`, so the next one stays in its own section.
    for i in range(10):
        add(
            cast,
            f"Ledger export {i}",
            f"The ledger export job {i} writes ledger CSV export files nightly.",
            "fact",
        )
    for i in range(4):
        add(
            cast,
            f"Rule {i}",
            f"Keep the HTTP API backwards compatible, rule {i}.",
            "constraint",
            importance=0.6,
        )
    matching = add(
        cast,
        "Ledger exports are append-only",
        "Never rewrite a ledger export file.",
        "constraint",
        importance=0.4,
        updated_at=timezone.now() - timedelta(days=100),
    )
    without = section_ids(context(cast, detail="lean", max_tokens=5000), "constraints")
    with_query = context(cast, detail="lean", query="ledger export files", max_tokens=5000)
    assert without[-1] == matching.public_id  # less important and older
    assert matching.public_id not in section_ids(with_query, "relevant")
    assert section_ids(with_query, "constraints")[0] == matching.public_id


@pytest.mark.parametrize("detail", ["lean", "balanced", "deep"])
@pytest.mark.parametrize("budget", [100, 250, 600, 1000, 3000])
def test_never_over_budget_at_any_detail_with_a_query(cast, page_of_constraints, detail, budget):
    for i in range(15):
        add(cast, f"Invoice rule {i}", f"Invoice numbering detail {i}. " * (i + 1) * 5, "fact")
    result = context(cast, query="invoice numbers", detail=detail, max_tokens=budget)
    text = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
    assert result["meta"]["estimated_tokens"] == estimate_tokens(text) <= budget
    assert shown_ids(result)  # even the smallest budget carries some knowledge


def test_the_store_entry_point_returns_the_same_shape(cast, page_of_constraints):
    result = store.get_context(
        cast.principal(cast.viewer), "payments", query="invoice numbers", max_tokens=600
    )
    assert page_of_constraints.public_id in section_ids(result, "relevant")
