"""import_memory: other tools' memory judged note by note as remember judges it; a dry run reports
exactly what the import then does, and writes nothing."""

from __future__ import annotations

import json

import pytest

from accounts.errors import Forbidden, InvalidArgument, Screened
from accounts.models import AuditEvent
from memory import limits, store
from memory.models import Note
from tests.mcp_gateway.state import save

SECRET = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"
CLAUDE_MD = """# Payments
We use Stripe for card payments.

## Rules
- Never store card numbers in application logs.
- Prefer small, focused pull requests.
- Amounts are integers in cents, never floats.

## Release steps
1. Bump the version in pyproject.toml
2. Run `make release`
"""
CURSOR_RULE = """---
description: API views
globs: api/views/*.py
alwaysApply: false
---
- Views stay thin: they call the store and nothing else.
"""


def live_notes() -> int:
    return Note.objects.filter(deleted_at=None).count()


def by_origin(report) -> dict[str, dict]:
    return {entry["origin"]: entry for entry in report["notes"]}


def test_a_preview_reports_what_the_import_then_does_and_writes_nothing(cast):
    owner = cast.principal(cast.owner)
    files = {"CLAUDE.md": CLAUDE_MD, ".cursor/rules/api.mdc": CURSOR_RULE}
    before = live_notes()
    preview = store.import_memory(owner, "payments", files, dry_run=True)
    assert live_notes() == before and not AuditEvent.objects.filter(action="memory.imported").exists()
    assert preview["format"] == "rules" and preview["dry_run"] is True
    assert preview["counts"]["created"] == 6 and preview["unreadable"] == []
    types = {entry["content"]: entry["type"] for entry in preview["notes"]}
    assert types["Never store card numbers in application logs."] == "constraint"
    assert types["Prefer small, focused pull requests."] == "preference"
    assert types["We use Stripe for card payments."] == "decision"
    [procedure] = [entry for entry in preview["notes"] if entry["type"] == "procedure"]
    assert procedure["title"] == "Release steps" and "2. Run `make release`" in procedure["content"]
    [thin] = [entry for entry in preview["notes"] if entry["origin"].startswith(".cursor/")]
    assert thin["paths"] == ["api/views/*.py"]

    done = store.import_memory(owner, "payments", files)
    assert done["dry_run"] is False and done["counts"] == preview["counts"]
    assert [(e["origin"], e["outcome"]) for e in done["notes"]] == [
        (e["origin"], e["outcome"]) for e in preview["notes"]
    ]
    assert live_notes() == before + 6
    bound = Note.objects.get(public_id=by_origin(done)[thin["origin"]]["note"])
    assert bound.paths == ["api/views/*.py"] and bound.tags == ["cursor-rules"]
    event = AuditEvent.objects.get(action="memory.imported")
    assert event.detail["format"] == "rules" and event.detail["created"] == 6


def test_known_notes_merge_and_repeats_inside_the_upload_collapse(cast):
    owner = cast.principal(cast.owner)
    known = save(cast, "Cents", "Amounts are integers in cents, never floats.", type="constraint")
    files = {
        "AGENTS.md": "- Amounts are integers in cents, never floats.\n- Amounts are integers in cents, never floats!\n- Never log card numbers anywhere in the service.\n- Never log card numbers anywhere in the service.\n"
    }
    report = store.import_memory(owner, "payments", files)
    outcomes = [(e["outcome"], e.get("note")) for e in report["notes"]]
    assert outcomes[0] == ("duplicate", known) and outcomes[1] == ("duplicate", known)
    assert outcomes[2][0] == "created" and outcomes[3] == ("duplicate", outcomes[2][1])
    assert report["counts"]["created"] == 1 and report["counts"]["duplicate"] == 3


def test_a_contradiction_is_reported_and_left_out(cast):
    owner = cast.principal(cast.owner)
    known = save(cast, "Redis", "We use Redis for rate limiting.", type="fact")
    report = store.import_memory(owner, "payments", {"AGENTS.md": "We do not use Redis for rate limiting.\n"})
    [entry] = report["notes"]
    assert entry["outcome"] == "conflict" and entry["note"] == known and known in entry["message"]
    assert not Note.objects.filter(body__startswith="We do not use Redis").exists()


def test_a_secret_is_refused_whole_unless_left_out_and_never_echoed(cast):
    owner = cast.principal(cast.owner)
    files = {"CLAUDE.md": f"- Never commit secrets to the repository.\n- The live key is {SECRET} for now.\n"}
    preview = store.import_memory(owner, "payments", files, dry_run=True)
    refused = [e for e in preview["notes"] if e["outcome"] == "refused"]
    assert len(refused) == 1 and refused[0]["origin"] == "CLAUDE.md:2"
    assert SECRET not in json.dumps(preview) and preview["counts"]["created"] == 1
    before = live_notes()
    with pytest.raises(Screened) as error:
        store.import_memory(owner, "payments", files)
    assert "CLAUDE.md:2" in error.value.message and SECRET not in json.dumps(error.value.as_dict())
    assert live_notes() == before  # nothing half-written
    done = store.import_memory(owner, "payments", files, skip_refused=True)
    assert done["counts"]["created"] == 1 and done["counts"]["refused"] == 1 and live_notes() == before + 1
    assert not Note.objects.filter(body__contains=SECRET).exists()
    assert AuditEvent.objects.filter(action="write.screened", detail__tool="import_memory").exists()


def test_notes_past_the_plan_cap_are_left_out_with_the_reason(cast):
    owner = cast.principal(cast.owner)
    used = Note.objects.filter(team=cast.acme, deleted_at=None).count()
    cast.plan.max_notes = used + 1
    cast.plan.save()
    lines = "".join(
        f"- Service {name} must answer within two seconds of a call.\n" for name in ("alpha", "beta", "gamma")
    )
    report = store.import_memory(owner, "payments", {"AGENTS.md": lines})
    assert [e["outcome"] for e in report["notes"]] == ["created", "over_cap", "over_cap"]
    assert report["notes"][1]["message"] and live_notes() == used + 1


def test_every_format_is_recognised_and_read(cast):
    owner = cast.principal(cast.owner)
    graph = "\n".join(
        json.dumps(line)
        for line in (
            {
                "type": "entity",
                "name": "Billing service",
                "entityType": "service",
                "observations": ["Runs on Fly.io in two regions"],
            },
            {"type": "entity", "name": "Ledger", "entityType": "service", "observations": []},
            {"type": "relation", "from": "Billing service", "to": "Ledger", "relationType": "writes_to"},
        )
    )
    uploads = {
        "memory-graph": {"memory.jsonl": graph},
        "mem0": {"mem0.json": json.dumps({"results": [{"id": "1", "memory": "Prefers tabs over spaces in Go code", "categories": ["preferences"]}]})},
        "mcp-memory-service": {"export.json": json.dumps({"export_metadata": {}, "memories": [{"content": "Decided to retry webhooks three times.", "content_hash": "ab", "memory_type": "decision", "tags": "webhooks,stripe"}]})},
        "basic-memory": {"notes/search.md": "---\ntitle: Search design\ntype: note\npermalink: search-design\n---\n## Observations\n- [decision] Use PostgreSQL full-text search #search\n## Relations\n- implements [[Search spec]]\n"},
    }  # fmt: skip
    for fmt, files in uploads.items():
        report = store.import_memory(owner, "payments", files, dry_run=True)
        assert report["format"] == fmt and report["counts"]["created"] >= 1, (fmt, report)
    graph_notes = store.import_memory(owner, "payments", uploads["memory-graph"], dry_run=True)["notes"]
    assert [e["content"] for e in graph_notes] == [
        "Runs on Fly.io in two regions",
        "Billing service writes to Ledger.",
    ]
    mem0 = store.import_memory(owner, "payments", uploads["mem0"], dry_run=True)["notes"]
    assert mem0[0]["type"] == "preference"


def test_what_cannot_be_read_is_reported_beside_what_can(cast):
    owner = cast.principal(cast.owner)
    graph = '{"type": "entity", "name": "A", "entityType": "x", "observations": ["A is fine"]}\n{not json\n'
    report = store.import_memory(
        owner, "payments", {"memory.jsonl": graph}, format="memory-graph", dry_run=True
    )
    assert report["counts"]["created"] == 1
    assert (
        report["unreadable"][0]["file"] == "memory.jsonl:2"
        and "not valid JSON" in report["unreadable"][0]["reason"]
    )


@pytest.mark.parametrize(
    "files",
    [
        None,
        {},
        "CLAUDE.md",
        {"a.md": 3},
        {"a.md": "x\x00y"},
        {f"{i}.md": "x" for i in range(limits.MEMORY_IMPORT_FILES.max_items + 1)},
    ],
    ids=["none", "empty", "string", "not-text", "nul", "too-many"],
)
def test_a_malformed_upload_is_a_clear_invalid_argument(cast, files):
    with pytest.raises(InvalidArgument):
        store.import_memory(cast.principal(cast.owner), "payments", files, dry_run=True)


def test_bounds_on_size_and_notes(cast):
    owner = cast.principal(cast.owner)
    with pytest.raises(InvalidArgument, match="bytes"):
        store.import_memory(
            owner, "payments", {"AGENTS.md": "x" * (limits.MEMORY_IMPORT_BYTES + 1)}, dry_run=True
        )
    many = "".join(
        f"- Rule number {i} must hold for every service.\n" for i in range(limits.MEMORY_IMPORT_NOTES + 1)
    )
    with pytest.raises(InvalidArgument, match="notes"):
        store.import_memory(owner, "payments", {"AGENTS.md": many}, dry_run=True)
    with pytest.raises(InvalidArgument):
        store.import_memory(owner, "payments", {"AGENTS.md": "- a rule here"}, format="xml", dry_run=True)


def test_read_only_callers_and_other_teams_cannot_import(cast):
    with pytest.raises(Forbidden):
        store.import_memory(cast.principal(cast.viewer), "payments", {"AGENTS.md": CLAUDE_MD}, dry_run=True)
    with pytest.raises(store.NotFound):
        store.import_memory(cast.principal(cast.outsider), "payments", {"AGENTS.md": CLAUDE_MD}, dry_run=True)
