"""Every family, raw and disguised, through every write path; afterwards no planted value is
anywhere in the database: notes, revisions, audit log, idempotency records, every table."""

from __future__ import annotations

import json

import pytest

from accounts.errors import StoreError
from accounts.models import AuditEvent
from mcp_gateway.tooling import TOOLS
from memory import registry
from tests.mcp_gateway.state import save
from tests.safety import harness
from tests.safety.write_paths import COVERED_BY_REST, MCP_PATHS, STORE_PATHS, Context


@pytest.fixture
def context(cast) -> Context:
    return Context(
        note_id=save(cast, "Original", "original text"),
        other_note_id=save(cast, "Other", "other text"),
    )


def test_every_write_entry_point_is_registered():
    write_tools = {name for name, spec in TOOLS.items() if spec.kind == "write"}
    write_store = {name for name, kind in registry.STORE_FUNCTIONS.items() if kind == "write"}
    covered = {path.name for path in MCP_PATHS} | {path.name for path in STORE_PATHS} | COVERED_BY_REST
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


@pytest.mark.parametrize("path", STORE_PATHS, ids=lambda p: p.name)
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


def test_canary_the_harness_catches_a_path_wired_around_the_gate(mcp, cast, context, monkeypatch):
    monkeypatch.setattr("memory.registry.screening.enforce", lambda *args, **kwargs: None)
    planted = harness.plants(variants=("raw",))
    remember = next(path for path in MCP_PATHS if path.name == "remember")
    problems = harness.plant_mcp(mcp, cast.key(cast.owner), remember, context, planted)
    assert problems, "with the gate bypassed, the writes must be reported as accepted"
    assert set(harness.leaks(planted)) >= {f"{p.family}/raw" for p in planted}
