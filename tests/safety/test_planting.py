"""Every family, raw and disguised, through every write path; afterwards no planted value is
anywhere in the database: notes, revisions, audit log, idempotency records, every table. Disguises
include every normalisation the store applies after the gate (tests/safety/disguises.py)."""

from __future__ import annotations

import json

import pytest

from accounts.errors import StoreError
from accounts.models import AuditEvent
from mcp_gateway.tooling import TOOLS
from memory import registry
from tests.mcp_gateway.state import save
from tests.safety import disguises, harness
from tests.safety.write_paths import ACCOUNT_PATHS, COVERED_BY_REST, MCP_PATHS, STORE_PATHS, Context


@pytest.fixture
def context(cast) -> Context:
    return Context(
        note_id=save(cast, "Original", "original text"),
        other_note_id=save(cast, "Other", "other text"),
    )


def test_every_write_entry_point_is_registered():
    write_tools = {name for name, spec in TOOLS.items() if spec.kind == "write"}
    write_store = {name for name, kind in registry.STORE_FUNCTIONS.items() if kind == "write"}
    covered = (
        {path.name for path in MCP_PATHS}
        | {path.name for path in STORE_PATHS + ACCOUNT_PATHS}
        | COVERED_BY_REST
    )
    assert write_tools | write_store <= covered, sorted((write_tools | write_store) - covered)


@pytest.mark.parametrize("path", MCP_PATHS, ids=lambda p: p.name)
def test_mcp_write_path_refuses_every_family(mcp, cast, context, path):
    planted = harness.plants()
    problems = harness.plant_mcp(mcp, cast.key(cast.owner), path, context, planted)
    assert problems == [], "\n".join(problems)
    assert harness.leaks(planted) == []
    screened = AuditEvent.objects.filter(action="write.screened")
    assert screened.exists()
    assert all(event.detail.keys() == {"tool", "field", "family"} for event in screened)


@pytest.mark.parametrize("path", STORE_PATHS + ACCOUNT_PATHS, ids=lambda p: p.name)
def test_store_write_path_refuses_every_family(cast, context, path):
    planted = harness.plants()
    principal = cast.principal(cast.owner)
    for plant in planted:
        for call in path.plant(plant.value, principal, context):
            with pytest.raises(StoreError) as refused:
                call()
            assert refused.value.code in {"screened", "invalid_argument", "not_found"}
            assert plant.value not in json.dumps(refused.value.as_dict())
    if path.name == "import_project":
        assert AuditEvent.objects.filter(
            action="write.screened", detail__tool="import_project"
        ).count() == len(planted)
    assert harness.leaks(planted) == []


def _planned(group: str, context: Context) -> dict[str, list[disguises.Scenario]]:
    return {d.name: disguises.scenarios(d, context) for d in disguises.DISGUISES[group]}


@pytest.mark.parametrize("group", sorted(disguises.DISGUISES))
def test_mcp_write_refuses_secrets_disguised_by_normalisation(mcp, cast, context, group):
    harness.install_team_rules(cast.acme)
    planned = _planned(group, context)
    # Every disguise plants something, and the group carries secrets the gate passes as sent (else it
    # would test nothing of the stored form). A disguise the patterns now see through as sent (a
    # title's leading marker) still plants, and its secrets must still be absent afterwards.
    assert [name for name, found in planned.items() if not found] == []
    assert any(s.stored_only for found in planned.values() for s in found)
    everything = [s for found in planned.values() for s in found]
    problems = harness.run_steps(mcp, cast.key(cast.owner), [(s.label, s.steps) for s in everything])
    assert problems == [], "\n".join(problems)
    assert harness.leaks([harness.Planted(s.family, s.label, s.secret) for s in everything]) == []
    # Refusals raised inside the write's transaction are audited after its rollback.
    refusals = AuditEvent.objects.filter(action="write.screened")
    assert refusals.count() >= sum(s.stored_only for s in everything)
    assert all(event.detail.keys() == {"tool", "field", "family"} for event in refusals)


def test_the_disguises_cover_the_reported_shapes(cast):
    context = Context(note_id="n_AAAAAAAAAAAAAAAA", other_note_id="n_BBBBBBBBBBBBBBBB")
    sent = {
        step.arguments.get("tags", [step.arguments.get("new") or step.arguments.get("name")])[0]
        for group in ("tags", "slugs")
        for found in _planned(group, context).values()
        for scenario in found
        if scenario.stored_only
        for step in scenario.steps
        if step.refused
    }
    reported = [
        "123 45 6789",
        "SK_LIVE_",
        "GHP_",
        "NPM_",
        "WHSEC_",
        "RK_TEST_",
        "xoxb 1",
        "glpat x",
        "123 - 45 - 6789",
    ]
    assert [shape for shape in reported if not any(value.startswith(shape) for value in sent)] == []


def test_canary_the_harness_catches_a_path_wired_around_the_gate(mcp, cast, context, monkeypatch):
    monkeypatch.setattr("memory.screening.guard.screen", lambda *args, **kwargs: None)
    planted = harness.plants(variants=("raw",))
    remember = next(path for path in MCP_PATHS if path.name == "remember")
    problems = harness.plant_mcp(mcp, cast.key(cast.owner), remember, context, planted)
    assert problems, "with the gate bypassed, the writes must be reported as accepted"
    assert {leak.split(" in ")[0] for leak in harness.leaks(planted)} >= {f"{p.family}/raw" for p in planted}


def test_canary_the_disguises_catch_a_gate_that_screens_only_what_was_sent(mcp, cast, context, monkeypatch):
    monkeypatch.setattr("memory.screening.guard.stored", lambda *args, **kwargs: None)
    harness.install_team_rules(cast.acme)
    for group in ("tags", "patches"):
        planned = [s for found in _planned(group, context).values() for s in found if s.stored_only]
        problems = harness.run_steps(mcp, cast.key(cast.owner), [(s.label, s.steps) for s in planned])
        assert problems, f"{group}: without the stored-form screening these writes must be accepted"
        assert harness.leaks([harness.Planted(s.family, s.label, s.secret) for s in planned])
