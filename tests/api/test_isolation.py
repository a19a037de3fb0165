"""Tenant isolation over every REST endpoint: an outsider (another team), a key scoped to another
project and another user facing a private note get exactly the answer of an id that does not exist,
and change nothing; a read-only key and the viewer role get forbidden from every write endpoint."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from accounts.models import ApiKey, AuditEvent
from memory.models import TransferJob
from tests.api.conftest import Api
from tests.api.schema import operations, write_operations
from tests.mcp_gateway.state import db_state, save

MISSING_NOTE = "n_DoesNotExist0000"
MISSING_SLUG = "no-such-project"
MISSING_KEY = "kb_0000000000000000"
MISSING_JOB = "j_DoesNotExist0000"


@dataclass(frozen=True)
class Target:
    note: str  # a note id aimed at
    project: str  # a project slug aimed at
    own_note: str  # a note of the caller's own
    own_project: str
    key: str  # an API key id aimed at
    job: str = MISSING_JOB  # a transfer job id aimed at


Call = tuple[str, str, Any, dict[str, Any] | None]  # method, path, body, query
Probe = Callable[[Target], list[Call]]

# For each operation, the calls that aim a note id, a project slug or a key id at someone else's data.
PROBES: dict[str, Probe] = {
    "read_project": lambda t: [("GET", f"/projects/{t.project}", None, None)],
    "update_project": lambda t: [("PATCH", f"/projects/{t.project}", {"summary": "taken over"}, None)],
    "rename_tag": lambda t: [
        ("POST", f"/projects/{t.project}/tags/rename", {"old": "secret", "new": "public"}, None)
    ],
    "list_notes": lambda t: [("GET", f"/projects/{t.project}/notes", None, None)],
    "create_note": lambda t: [
        ("POST", f"/projects/{t.project}/notes", {"title": "probe", "body": "probe"}, None)
    ],
    "read_notes": lambda t: [("GET", "/notes", None, {"ids": [t.note]})],
    "read_note": lambda t: [("GET", f"/notes/{t.note}", None, None)],
    "update_note": lambda t: [("PATCH", f"/notes/{t.note}", {"title": "overwritten"}, None)],
    "patch_note": lambda t: [("POST", f"/notes/{t.note}/patch", {"op": "append", "text": "probe"}, None)],
    "delete_note": lambda t: [("DELETE", f"/notes/{t.note}", None, {"reason": "probe"})],
    "restore_note": lambda t: [("POST", f"/notes/{t.note}/restore", {}, None)],
    "report_code_change": lambda t: [
        ("POST", f"/projects/{t.project}/code-changes", {"commit": "abc1234", "paths": ["a.py"]}, None)
    ],
    "confirm_note": lambda t: [("POST", f"/notes/{t.note}/confirm", {}, None)],
    "import_memory": lambda t: [
        (
            "POST",
            f"/projects/{t.project}/memory-imports",
            {"files": {"AGENTS.md": "- Never log cards."}},
            None,
        )
    ],
    "list_revisions": lambda t: [("GET", f"/notes/{t.note}/revisions", None, None)],
    "read_revision": lambda t: [("GET", f"/notes/{t.note}/revisions/1", None, None)],
    "restore_revision": lambda t: [("POST", f"/notes/{t.note}/revisions/1/restore", {}, None)],
    "list_links": lambda t: [("GET", f"/notes/{t.note}/links", None, None)],
    "create_link": lambda t: [
        ("POST", f"/notes/{t.note}/links", {"to_id": t.own_note, "kind": "relates_to"}, None),
        ("POST", f"/notes/{t.own_note}/links", {"to_id": t.note, "kind": "contradicts"}, None),
    ],
    "delete_link": lambda t: [
        ("DELETE", f"/notes/{t.note}/links/relates_to/{t.own_note}", None, None),
        ("DELETE", f"/notes/{t.own_note}/links/relates_to/{t.note}", None, None),
    ],
    "remember": lambda t: [
        ("POST", f"/projects/{t.project}/remember", {"content": "probe"}, None),
        (
            "POST",
            f"/projects/{t.own_project}/remember",
            {"content": "probe supersedes", "supersedes": [t.note]},
            None,
        ),
    ],
    "checkpoint": lambda t: [("POST", f"/projects/{t.project}/checkpoint", {"summary": "probe"}, None)],
    "get_context": lambda t: [
        ("GET", f"/projects/{t.project}/context", None, None),
        ("GET", f"/projects/{t.project}/context", None, {"format": "markdown"}),
    ],
    "render_project": lambda t: [
        ("GET", f"/projects/{t.project}/render", None, None),
        ("GET", f"/projects/{t.project}/render", None, {"target": "cursor_rules"}),
    ],
    "get_changes": lambda t: [("GET", f"/projects/{t.project}/changes", None, None)],
    "search_notes": lambda t: [("GET", "/search", None, {"query": "webhooks", "project": t.project})],
    "export_project": lambda t: [("GET", f"/projects/{t.project}/export", None, None)],
    "read_transfer_job": lambda t: [("GET", f"/transfers/{t.job}", None, None)],
    "retry_transfer_job": lambda t: [("POST", f"/transfers/{t.job}/retry", {}, None)],
    "create_api_key": lambda t: [("POST", "/api-keys", {"name": "probe", "project": t.project}, None)],
    "revoke_api_key": lambda t: [("DELETE", f"/api-keys/{t.key}", None, None)],
}
# Operations that take no id or slug: checked for what they reveal (and, if writes, by read-only).
NO_TARGET = {"list_projects", "create_project", "import_project", "get_usage", "list_api_keys"}


def test_every_operation_has_an_isolation_probe():
    assert set(operations()) == set(PROBES) | NO_TARGET


def state() -> Any:
    return db_state(), sorted(ApiKey.objects.values_list("lookup", "revoked_at"))


def answers(api: Api, calls: list[Call]) -> list[tuple[int, Any]]:
    return [
        (a.status, a.json if a.json is not None else a.text)
        for a in (api.call(*c[:3], query=c[3]) for c in calls)
    ]


def compare(
    api: Api, foreign: Target, missing: Target, statuses: dict[str, set[int]] | None = None
) -> list[str]:
    problems = []
    for name, probe in PROBES.items():
        got, expected = answers(api, probe(foreign)), answers(api, probe(missing))
        for (status, body), (status_missing, body_missing) in zip(got, expected, strict=True):
            seen = (
                repr(body)
                .replace(foreign.note, "<ID>")
                .replace(foreign.project, "<P>")
                .replace(foreign.key, "<K>")
                .replace(foreign.job, "<J>")
            )
            wanted = (
                repr(body_missing)
                .replace(MISSING_NOTE, "<ID>")
                .replace(MISSING_SLUG, "<P>")
                .replace(MISSING_KEY, "<K>")
                .replace(MISSING_JOB, "<J>")
            )
            if status != status_missing or seen != wanted:
                problems.append(
                    f"{name}: foreign {status} {seen[:200]} != missing {status_missing} {wanted[:200]}"
                )
            if status not in (200, 400, 403, 404):
                problems.append(f"{name}: {status}")
            if statuses is not None:
                statuses.setdefault(name, set()).add(status)
    return problems


@pytest.fixture
def world(cast):
    return {
        "team_note": save(cast, "Webhooks", "Stripe webhooks retry", tags=["secret"]),
        "private_note": save(
            cast, "Olivia's webhooks", "private webhooks", user=cast.owner, visibility="private"
        ),
        "website_note": save(cast, "Website", "website webhooks", project="website"),
        "lab_note": save(cast, "Lab", "lab webhooks", user=cast.outsider, project="lab"),
        "acme_key": cast.key(cast.member)[: len("kb_") + 12],  # a key's id is its public prefix
        "acme_job": TransferJob.objects.create(
            team=cast.acme,
            user=cast.member,
            project=cast.payments,
            credential_id="a session since ended",
            kind=TransferJob.Kind.EXPORT,
            format="json",
            status=TransferJob.Status.FAILED,
            error="The worker stopped while exporting; start it again.",
        ).public_id,
    }


def test_outsider_of_another_team(api, cast, world):
    outsider = api.as_(cast.key(cast.outsider))
    before = state()
    problems: list[str] = []
    statuses: dict[str, set[int]] = {}
    for note in (world["team_note"], world["private_note"], world["website_note"]):
        foreign = Target(note, "payments", world["lab_note"], "lab", world["acme_key"], world["acme_job"])
        missing = Target(MISSING_NOTE, MISSING_SLUG, world["lab_note"], "lab", MISSING_KEY)
        problems += compare(outsider, foreign, missing, statuses)
    assert problems == [], "\n".join(problems)
    assert state() == before
    # Every probe reached the scope check (an owner of another team may do each of these at home).
    assert {name: codes for name, codes in statuses.items() if codes != {404}} == {"read_notes": {200}}


def test_key_scoped_to_another_project(api, cast, world):
    scoped = api.as_(cast.key(cast.member, project=cast.website))
    before = state()
    foreign = Target(world["team_note"], "payments", world["website_note"], "website", world["acme_key"])
    missing = Target(MISSING_NOTE, MISSING_SLUG, world["website_note"], "website", MISSING_KEY)
    problems = compare(scoped, foreign, missing)
    assert problems == [], "\n".join(problems)
    assert state() == before


def test_another_user_against_a_private_note(api, cast, world):
    before = state()
    foreign = Target(world["private_note"], MISSING_SLUG, world["team_note"], "payments", MISSING_KEY)
    missing = Target(MISSING_NOTE, MISSING_SLUG, world["team_note"], "payments", MISSING_KEY)
    problems = compare(api, foreign, missing)
    assert problems == [], "\n".join(problems)
    assert state() == before


WRITES: dict[str, Probe] = {
    "create_project": lambda t: [("POST", "/projects", {"name": "Probe"}, None)],
    "import_project": lambda t: [
        ("POST", "/import", {"document": {"format": "knownbase-export"}, "slug": "copy"}, None)
    ],
}


# POSTs that are reads to the store: retrying one's own export re-runs a read (an import's retry needs
# write access, tested in tests/api/test_transfer.py).
READS_BY_POST = {"retry_transfer_job"}


@pytest.mark.parametrize("who", ["read_only_key", "viewer"])
def test_every_write_endpoint_is_forbidden_to_read_only_credentials(api, cast, world, who):
    key = cast.key(cast.member, read_only=True) if who == "read_only_key" else cast.key(cast.viewer)
    caller = api.as_(key)
    own = Target(world["team_note"], "payments", world["website_note"], "website", world["acme_key"])
    assert write_operations() <= set(PROBES) | set(WRITES)
    before = state()
    problems = []
    for name in sorted(write_operations() - READS_BY_POST):
        for call in {**PROBES, **WRITES}[name](own):
            answer = caller.call(*call[:3], query=call[3])
            if answer.status != 403 or answer.error["code"] != "forbidden":
                problems.append(f"{name} {call[:2]}: {answer}")
    assert problems == [], "\n".join(problems)
    assert state() == before
    assert not AuditEvent.objects.filter(action__startswith="note.").exclude(action="note.created").exists()


def test_reads_never_surface_foreign_notes(api, cast, world):
    outsider = api.as_(cast.key(cast.outsider))
    foreign = {world["team_note"], world["private_note"], world["website_note"]}
    seen = repr(
        [
            outsider.get("/search", query="webhooks").json,
            outsider.get("/projects/lab/context", query="webhooks").json,
            outsider.get("/projects/lab/changes").json,
            outsider.get("/projects/lab/notes").json,
            outsider.get("/projects").json,
            outsider.get("/usage").json,
            outsider.get("/api-keys").json,
            outsider.get(f"/notes/{world['lab_note']}/links").json,
        ]
    )
    assert not any(note in seen for note in foreign) and "payments" not in seen
    assert world["acme_key"] not in seen
    member_view = repr([api.get("/projects/payments/notes").json, api.get("/search", query="webhooks").json])
    assert world["private_note"] not in member_view
