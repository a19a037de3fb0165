"""Every cap an MCP tool can reach, at its limit: plan_limit naming the cap, the usage and the upgrade
URL, and nothing written. Members and API keys have no MCP tool (tests/billing/test_caps_members_keys.py)."""

from __future__ import annotations

import pytest

from memory.models import Note
from tests.mcp_gateway.state import db_state, save

CAPPED_WRITES = [
    ("projects", "projects", "create_project", {"name": "One too many"}),
    ("notes", "notes", "remember", {"project": "payments", "content": "Refunds settle in five days."}),
    ("notes", "notes", "save_note", {"project": "website", "title": "Hero copy", "body": "Ship it."}),
    ("notes", "notes", "checkpoint", {"project": "payments", "summary": "Refund work paused."}),
]


def at_cap(cast, field: str) -> int:
    """Set the team plan's cap to exactly what the team uses now; returns that usage."""
    used = Note.objects.filter(team=cast.acme, deleted_at=None).count() if field == "notes" else 2
    setattr(cast.plan, f"max_{field}", used)
    cast.plan.save()
    return used


@pytest.mark.parametrize(
    ("cap", "field", "tool", "arguments"), CAPPED_WRITES, ids=[c[2] for c in CAPPED_WRITES]
)
def test_a_write_past_the_cap_is_refused_and_writes_nothing(
    local_mcp, cast, settings, cap, field, tool, arguments
):
    save(cast, "Existing", "A note from before.")
    used = at_cap(cast, field)
    before = db_state()
    error = local_mcp.error(cast.key(cast.member), tool, arguments)
    assert error["code"] == "plan_limit"
    assert (error["cap"], error["limit"], error["usage"]) == (cap, used, used)
    assert error["upgrade_url"] == f"{settings.SITE_URL}/billing/"
    message = error["message"]
    assert f"allows {used} {cap}" in message and f"uses {used}" in message
    assert f"{settings.SITE_URL}/billing/" in message and "Nothing was written" in message
    assert db_state() == before


def test_a_checkpoint_that_would_pass_the_cap_midway_writes_none_of_it(local_mcp, cast):
    save(cast, "Existing", "A note from before.")
    cast.plan.max_notes = 2  # room for the handoff note, not for its decision
    cast.plan.save()
    before = db_state()
    error = local_mcp.error(
        cast.key(cast.member),
        "checkpoint",
        {
            "project": "payments",
            "summary": "Refund work paused.",
            "decisions": ["Refunds go through Stripe."],
        },
    )
    assert error["code"] == "plan_limit" and error["cap"] == "notes"
    assert db_state() == before


def test_past_a_cap_reads_and_edits_keep_working(local_mcp, cast):
    ids = [save(cast, f"Refund rule {i}", f"Refund rule number {i} holds.") for i in range(3)]
    cast.plan.max_notes = 1  # a downgrade below what the team has: nothing is deleted
    cast.plan.save()
    key = cast.key(cast.member)
    assert (
        local_mcp.error(key, "remember", {"project": "payments", "content": "Another rule."})["code"]
        == "plan_limit"
    )
    found = local_mcp.ok(key, "get_notes", {"ids": ids})
    assert {note["id"] for note in found["notes"]} == set(ids) and found["missing"] == []
    assert len(local_mcp.ok(key, "search_notes", {"query": "refund rule", "semantic": False})["results"]) == 3
    assert local_mcp.ok(key, "get_usage")["usage"]["notes"] == 3
    edited = local_mcp.ok(key, "patch_note", {"id": ids[0], "op": "append", "text": "Still editable."})
    assert edited["note"]["version"] == 2
    assert Note.objects.filter(team=cast.acme, deleted_at=None).count() == 3
