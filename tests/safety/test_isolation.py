"""Tenant isolation: every MCP tool, called with every kind of foreign id by an outsider (another team),
a key scoped to another project, and another user of the team against private notes, answers exactly
as for an id that does not exist, and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import anyio
import pytest

from mcp_gateway.tooling import TOOLS
from tests.live_mcp import McpCaller
from tests.mcp_gateway.state import db_state, save

MISSING_NOTE = "n_DoesNotExist0000"
MISSING_SLUG = "no-such-project"

# For each tool, the calls that aim a note id (`n`) or a project slug (`p`) at someone else's data.
# A foreign value must get the same answer as MISSING_NOTE / MISSING_SLUG.
Probe = Callable[[str, str, str], list[tuple[str, dict[str, Any]]]]
PROBES: dict[str, Probe] = {
    "get_context": lambda n, p, own: [("get_context", {"project": p})],
    "get_changes_since": lambda n, p, own: [("get_changes_since", {"project": p})],
    "remember": lambda n, p, own: [
        ("remember", {"project": p, "content": "probe"}),
        ("remember", {"project": "own", "content": "probe supersedes", "supersedes": [n]}),
    ],
    "checkpoint": lambda n, p, own: [("checkpoint", {"project": p, "summary": "probe"})],
    "search_notes": lambda n, p, own: [("search_notes", {"project": p, "query": "webhooks"})],
    "get_notes": lambda n, p, own: [("get_notes", {"ids": [n]})],
    "save_note": lambda n, p, own: [
        ("save_note", {"id": n, "title": "overwritten"}),
        ("save_note", {"project": p, "title": "probe", "body": "probe"}),
    ],
    "patch_note": lambda n, p, own: [("patch_note", {"id": n, "op": "append", "text": "probe"})],
    "delete_note": lambda n, p, own: [("delete_note", {"id": n})],
    "list_note_revisions": lambda n, p, own: [("list_note_revisions", {"id": n})],
    "get_note_revision": lambda n, p, own: [("get_note_revision", {"id": n, "version": 1})],
    "relate_notes": lambda n, p, own: [
        ("relate_notes", {"from_id": n, "to_id": own, "kind": "relates_to"}),
        ("relate_notes", {"from_id": own, "to_id": n, "kind": "contradicts"}),
    ],
    "rename_project": lambda n, p, own: [("rename_project", {"project": p, "name": "taken over"})],
    "rename_tag": lambda n, p, own: [("rename_tag", {"project": p, "old": "secret", "new": "public"})],
    "export_project": lambda n, p, own: [("export_project", {"project": p})],
    "report_code_change": lambda n, p, own: [
        ("report_code_change", {"project": p, "commit": "abc1234", "paths": ["a.py"]})
    ],
    "confirm_note": lambda n, p, own: [("confirm_note", {"id": n})],
}
# Tools that take no id or slug: checked for what they reveal instead.
NO_TARGET = {"list_projects", "get_usage", "create_project"}


@dataclass
class World:
    team_note: str
    private_note: str  # the owner's
    website_note: str
    attacker_own_note: str


def answer(mcp: McpCaller, key: str, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    async def run() -> list[Any]:
        async with mcp._client(key) as client:
            out = []
            for tool, arguments in calls:
                result = await client.call_tool(tool, arguments)
                out.append((result.is_error, result.structured_content))
            return out

    return anyio.run(run)


def normalise(value: Any, foreign: str, missing: str) -> Any:
    return repr(value).replace(foreign, "<ID>").replace(missing, "<ID>")


def test_every_tool_has_an_isolation_probe():
    assert set(TOOLS) == set(PROBES) | NO_TARGET


def compare(
    mcp: McpCaller, key: str, own_project: str, own_note: str, foreign_note: str, foreign_slug: str
) -> list[str]:
    problems = []

    def fix(calls: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
        return [(t, {k: (own_project if v == "own" else v) for k, v in a.items()}) for t, a in calls]

    for probe in PROBES.values():
        foreign_calls = probe(foreign_note, foreign_slug, own_note)
        missing_calls = probe(MISSING_NOTE, MISSING_SLUG, own_note)
        got = answer(mcp, key, fix(foreign_calls))
        expected = answer(mcp, key, fix(missing_calls))
        for (tool_name, _), g, e in zip(fix(foreign_calls), got, expected, strict=True):
            if normalise(g, foreign_note, MISSING_NOTE).replace(foreign_slug, MISSING_SLUG) != normalise(
                e, foreign_note, MISSING_NOTE
            ):
                problems.append(f"{tool_name}: foreign {g} != missing {e}")
    return problems


@pytest.fixture
def world(cast) -> World:
    return World(
        team_note=save(cast, "Webhooks", "Stripe webhooks retry", tags=["secret"]),
        private_note=save(
            cast, "Owner's webhooks", "private webhooks notes", user=cast.owner, visibility="private"
        ),
        website_note=save(cast, "Website", "website webhooks", project="website"),
        attacker_own_note=save(cast, "Lab", "lab webhooks", user=cast.outsider, project="lab"),
    )


def test_outsider_of_another_team(mcp, cast, world):
    key = cast.key(cast.outsider)
    before = db_state()
    problems = []
    for note in (world.team_note, world.private_note, world.website_note):
        problems += compare(mcp, key, "lab", world.attacker_own_note, note, "payments")
    assert problems == [], "\n".join(problems)
    assert db_state() == before


def test_key_scoped_to_another_project(mcp, cast, world):
    key = cast.key(cast.member, project=cast.website)
    before = db_state()
    problems = compare(mcp, key, "website", world.website_note, world.team_note, "payments")
    assert problems == [], "\n".join(problems)
    assert db_state() == before


def test_another_user_against_private_notes(mcp, cast, world):
    key = cast.key(cast.member)
    before = db_state()
    problems = compare(mcp, key, "payments", world.team_note, world.private_note, MISSING_SLUG)
    assert problems == [], "\n".join(problems)
    assert db_state() == before


def test_reads_never_surface_foreign_notes(mcp, cast, world):
    outsider = cast.key(cast.outsider)
    foreign = {world.team_note, world.private_note, world.website_note}
    seen = repr(
        [
            mcp.ok(outsider, "search_notes", {"query": "webhooks"}),
            mcp.ok(outsider, "search_notes", {"query": "webhooks", "semantic": True}),
            mcp.ok(outsider, "get_context", {"project": "lab", "query": "webhooks"}),
            mcp.ok(outsider, "get_changes_since", {"project": "lab"}),
            mcp.ok(outsider, "list_projects"),
            mcp.ok(outsider, "get_usage"),
        ]
    )
    assert not any(note in seen for note in foreign) and "payments" not in seen
    member = cast.key(cast.member)
    for tool, arguments in [
        ("search_notes", {"query": "webhooks", "semantic": True}),
        ("get_context", {"project": "payments", "query": "webhooks"}),
        ("get_changes_since", {"project": "payments"}),
    ]:
        assert world.private_note not in repr(mcp.ok(member, tool, arguments))
    scoped = cast.key(cast.member, project=cast.website)
    assert world.team_note not in repr(mcp.ok(scoped, "search_notes", {"query": "webhooks"}))


def test_usage_counts_only_the_callers_team(mcp, cast, world):
    usage = mcp.ok(cast.key(cast.outsider), "get_usage")["usage"]
    assert (usage["projects"], usage["notes"]) == (1, 1)
