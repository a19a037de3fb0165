from __future__ import annotations

from memory.models import Note
from tests.mcp_gateway.state import save, text_matches_structured

SECTIONS = {
    "constraints",
    "conflicts",
    "decisions",
    "architecture",
    "failed_approaches",
    "status",
    "relevant",
    "open_items",
    "recent_changes",
}
META_FIELDS = {"budget", "estimated_tokens", "detail", "omitted", "omitted_count", "search_mode"}


def test_returns_the_project_state_in_the_contract_shape(mcp, cast):
    cast.payments.summary = "Card payments for the shop."
    cast.payments.agent_instructions = "Never log card numbers."
    cast.payments.save()
    constraint = save(cast, "PCI scope", "Card numbers never touch our servers.", type="constraint")
    decision = save(cast, "Stripe", "We use Stripe for card payments.", type="decision")
    task = save(cast, "Refunds", "Refund flow is not built yet.", type="task")
    result = mcp.call(cast.key(cast.member), "get_context", {"project": "payments"})
    assert not result.is_error, result.structured_content
    assert text_matches_structured(result)
    context = result.structured_content
    assert context["project"] == {
        "slug": "payments",
        "name": "Payments API",
        "summary": "Card payments for the shop.",
        "agent_instructions": "Never log card numbers.",
    }
    # Empty sections are left out; each entry carries what its section does not already say.
    assert list(context["sections"]) == ["constraints", "decisions", "open_items"]
    assert set(context["sections"]) <= SECTIONS
    assert context["sections"]["constraints"] == [
        {"id": constraint, "title": "PCI scope", "excerpt": "Card numbers never touch our servers."}
    ]
    assert [e["id"] for e in context["sections"]["decisions"]] == [decision]
    assert [e["id"] for e in context["sections"]["open_items"]] == [task]
    meta = context["meta"]
    assert set(meta) == META_FIELDS
    assert meta["detail"] == "balanced"
    assert 0 < meta["estimated_tokens"] <= meta["budget"]
    assert meta["omitted"] == [] and meta["omitted_count"] == 0


def test_explicit_budget_and_query(local_mcp, cast):
    for n in range(10, 22):
        title = f"Webhook rule {n}: the handler checks the signature header against the shared secret first"
        save(cast, title, f"Webhook handler {n} must verify the signature. " * 20)
    context = local_mcp.ok(
        cast.key(cast.member),
        "get_context",
        {"project": "payments", "query": "webhook signature", "detail": "lean", "max_tokens": 300},
    )
    assert context["meta"]["budget"] == 300
    assert context["meta"]["estimated_tokens"] <= 300
    assert context["meta"]["detail"] == "lean"
    assert context["meta"]["search_mode"] is not None
    returned = [e["id"] for entries in context["sections"].values() for e in entries]
    assert returned
    # What did not fit is counted, and listed by id while the ids fit, so the agent can fetch it
    # with get_notes (tests/memory/test_context_packing.py covers the listing).
    assert context["meta"]["omitted_count"] >= max(1, len(context["meta"]["omitted"]))
    assert all(set(o) == {"id", "section"} for o in context["meta"]["omitted"])
    assert not {o["id"] for o in context["meta"]["omitted"]} & set(returned)


def test_read_only_callers_may_read(local_mcp, cast):
    note = save(cast, "Stripe", "We use Stripe.", type="decision")
    for key in (cast.key(cast.member, read_only=True), cast.key(cast.viewer)):
        context = local_mcp.ok(key, "get_context", {"project": "payments"})
        assert [e["id"] for e in context["sections"]["decisions"]] == [note]


def test_a_project_out_of_scope_is_not_found(local_mcp, cast):
    save(cast, "Stripe", "We use Stripe.", type="decision")
    for key in (cast.key(cast.outsider), cast.key(cast.member, project=cast.website)):
        error = local_mcp.error(key, "get_context", {"project": "payments"})
        assert error["code"] == "not_found"
        assert "payments" in error["message"]
    # Nothing was read, so nothing was reinforced.
    assert Note.objects.get().access_count == 0


def test_bad_input_is_invalid_argument(local_mcp, cast):
    key = cast.key(cast.member)
    for arguments in [
        {},
        {"project": ""},
        {"project": 7},
        {"project": "payments", "detail": "huge"},
        {"project": "payments", "max_tokens": 10},
        {"project": "payments", "max_tokens": 50001},
        {"project": "payments", "max_tokens": "lots"},
        {"project": "payments", "types": ["gossip"]},
        {"project": "payments", "types": "decision"},
        {"project": "payments", "query": "x" * 501},
        {"project": "payments", "budget": 500},
    ]:
        result = local_mcp.call(key, "get_context", arguments)
        assert result.is_error, arguments
        assert result.structured_content["error"]["code"] == "invalid_argument", arguments
