"""Redis stopped under a running web process: every door still answers, as docs/production.md's
"Degraded modes" table says, and nothing acknowledged is lost.

A real uvicorn process uses a private redis-server as cache and broker (no Celery worker: with Redis
gone, work the broker cannot take runs in the web process). Redis serves the first requests, then is
stopped for the rest of the module. Each test keeps a write log (the ids of acknowledged writes)
and checks it against the database: every acknowledged write is there, every export has its audit
row.
"""

from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest
import redis

from accounts.models import AuditEvent, User
from memory.models import Note, Project
from tests.live_mcp import McpCaller
from tests.redis_server import redis_server
from tests.web_process import web_processes

pytestmark = [pytest.mark.live_server, pytest.mark.slow]  # a redis-server and a uvicorn process
ANONYMOUS_LIMIT = 3  # /api requests a minute without a credential, per client address
PASSWORD = "plum tree harbour"
STATEMENTS = [
    "Settlement files are uploaded to the bank by an SFTP job.",
    "Card disputes are exported to the risk team every Monday.",
    "The invoice PDF renderer uses WeasyPrint.",
    "Currency conversion takes the ECB reference rate of the previous day.",
    "Failed webhook deliveries land in the dead-letter table for a week.",
]


@dataclass(frozen=True)
class Outage:
    base: str
    log: Path


@pytest.fixture(scope="module")
def outage(django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Outage]:
    workdir = tmp_path_factory.mktemp("redis-down")
    log = workdir / "web.log"
    with (
        redis_server(workdir) as server,
        web_processes(
            1,
            stderr=log,
            REDIS_URL=server.url,
            CELERY_QUEUE=f"knownbase-faults-{os.getpid()}",
            EMBEDDINGS_PROVIDER="none",  # the provider's own outage is tests/faults/test_embeddings_down.py
            API_ANONYMOUS_PER_IP_PER_MINUTE=str(ANONYMOUS_LIMIT),
            TRUSTED_PROXY_COUNT="1",  # lets each test be a client address of its own
        ) as [base],
    ):
        # Redis is in use before it goes: the anonymous request was counted there.
        assert httpx2.get(f"{base}/api/v1/projects", headers=_own_address(), timeout=30).status_code == 401
        assert any(b":rl:" in key for key in redis.Redis.from_url(server.url).keys("*"))
        server.stop()
        yield Outage(base, log)


@pytest.fixture
def live(outage: Outage, transactional_db: None) -> Outage:
    return outage


def _own_address() -> dict[str, str]:
    return {"X-Forwarded-For": f"198.18.{random.randint(0, 255)}.{random.randint(1, 254)}"}


def _wait_for_a_fresh_window(margin: float = 5.0) -> None:
    # Limits count in fixed minutes: start far enough from a minute's end that all requests share it.
    left = 60 - time.time() % 60
    if left < margin:
        time.sleep(left + 0.1)


def test_every_mcp_tool_answers_and_every_acknowledged_write_is_stored(live, cast):
    mcp = McpCaller(f"{live.base}/mcp")
    key = cast.key(cast.member)
    called: set[str] = set()
    written: list[str] = []  # the write log: ids the server acknowledged

    def ok(tool: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        called.add(tool)
        return mcp.ok(key, tool, arguments)

    first = ok(
        "remember", {"project": "payments", "content": "Refunds go through the ledger.", "tags": ["ledger"]}
    )
    second = ok("remember", {"project": "payments", "content": "Payouts run nightly at 02:00 UTC."})
    written += [first["note"]["id"], second["note"]["id"]]
    handoff = ok("checkpoint", {"project": "payments", "summary": "Ledger refunds are wired up."})
    written += [handoff["handoff"]["id"], *(item["id"] for item in handoff["items"])]
    saved = ok(
        "save_note", {"project": "payments", "title": "Chargebacks", "body": "Answered within 7 days."}
    )
    written.append(saved["note"]["id"])
    ok("save_note", {"id": saved["note"]["id"], "title": "Chargeback deadline"})
    ok("patch_note", {"id": first["note"]["id"], "op": "append", "text": "Partial refunds too."})
    ok("relate_notes", {"from_id": first["note"]["id"], "to_id": second["note"]["id"], "kind": "relates_to"})
    ok("rename_tag", {"project": "payments", "old": "ledger", "new": "refunds"})
    bound = ok(
        "remember",
        {"project": "payments", "content": "Ledger exports are CSV only.", "paths": ["ledger/**"]},
    )
    written.append(bound["note"]["id"])
    change = ok(
        "report_code_change", {"project": "payments", "commit": "9f2c1e4", "paths": ["ledger/csv.py"]}
    )
    assert [note["id"] for note in change["flagged"]] == [bound["note"]["id"]]
    ok("confirm_note", {"id": bound["note"]["id"]})
    assert {n["id"] for n in ok("get_notes", {"ids": written[:2]})["notes"]} == set(written[:2])
    ok("get_context", {"project": "payments", "query": "refunds"})
    ok("get_changes_since", {"project": "payments"})
    found = ok("search_notes", {"query": "ledger refunds", "project": "payments"})
    assert found["search_mode"] in {"fulltext", "substring"}
    assert first["note"]["id"] in [row["id"] for row in found["results"]]
    ok("list_note_revisions", {"id": first["note"]["id"]})
    ok("get_note_revision", {"id": first["note"]["id"], "version": 1})
    assert "payments" in [p["slug"] for p in ok("list_projects")["projects"]]
    made = ok("create_project", {"name": "Logistics", "slug": "logistics"})
    ok("rename_project", {"project": made["project"]["slug"], "name": "Logistics and freight"})
    exported = ok("export_project", {"project": "payments"})
    assert exported["url"]
    ok("get_usage")
    ok("delete_note", {"id": second["note"]["id"], "reason": "superseded by the payout runbook"})

    assert called == {tool.name for tool in mcp.list_tools(key)}  # every tool, none forgotten
    stored = dict(Note.objects.filter(public_id__in=written).values_list("public_id", "deleted_at"))
    assert set(stored) == set(written)
    assert stored[second["note"]["id"]] is not None  # the acknowledged delete too
    assert Note.objects.get(public_id=first["note"]["id"]).tags == ["refunds"]
    assert Project.objects.get(team=cast.acme, slug="logistics").name == "Logistics and freight"
    # The export's audit row is written by a task: without a broker it ran before the answer.
    assert AuditEvent.objects.filter(action="project.export_requested", project_slug="payments").count() == 1


def test_rest_remember_search_and_export_answer_and_lose_nothing(live, cast):
    headers = {"Authorization": f"Bearer {cast.key(cast.member)}"}
    api = f"{live.base}/api/v1"
    written = []
    for statement in STATEMENTS:
        body = {"content": statement}
        answer = httpx2.post(f"{api}/projects/payments/remember", json=body, headers=headers, timeout=30)
        assert answer.status_code == 201, answer.text
        written.append(answer.json()["note"]["id"])
    found = httpx2.get(f"{api}/search", params={"query": "settlement files"}, headers=headers, timeout=30)
    assert found.status_code == 200, found.text
    assert found.json()["search_mode"] in {"fulltext", "substring"}
    exports = 0
    for fmt in ("json", "markdown"):
        download = httpx2.get(
            f"{api}/projects/payments/export", params={"format": fmt}, headers=headers, timeout=30
        )
        assert download.status_code == 200, download.text[:300]
        exports += 1
    assert set(Note.objects.filter(public_id__in=written).values_list("public_id", flat=True)) == set(written)
    assert AuditEvent.objects.filter(action="project.exported", project_slug="payments").count() == exports


def test_anonymous_rest_limit_holds_per_process(live):
    headers = _own_address()
    _wait_for_a_fresh_window()
    answers = [
        httpx2.get(f"{live.base}/api/v1/projects", headers=headers, timeout=30).status_code
        for _ in range(ANONYMOUS_LIMIT + 1)
    ]
    # Counted in the process while Redis is away: limited, not wide open.
    assert answers == [401] * ANONYMOUS_LIMIT + [429]


def _form_token(http: httpx2.Client, path: str) -> str:
    page = http.get(path)
    assert page.status_code == 200, page.text[:300]
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    assert match, page.text[:300]
    return match.group(1)


def _post(http: httpx2.Client, path: str, data: dict[str, str]) -> httpx2.Response:
    return http.post(path, data={"csrfmiddlewaretoken": _form_token(http, path), **data})


def test_sign_up_sign_in_and_sessions_work(live):
    with httpx2.Client(base_url=live.base, headers=_own_address(), timeout=30) as http:
        signed_up = _post(
            http, "/signup/", {"email": "nora@example.test", "password": PASSWORD, "team": "Nora"}
        )
        assert (signed_up.status_code, signed_up.headers["location"]) == (302, "/")
        assert User.objects.filter(email="nora@example.test").exists()
        assert _post(http, "/logout/", {}).status_code == 302
        wrong = _post(http, "/login/", {"username": "nora@example.test", "password": "not the password"})
        assert wrong.status_code == 400
        signed_in = _post(http, "/login/", {"username": "nora@example.test", "password": PASSWORD})
        assert signed_in.status_code == 302
        # The session is in the database: the next requests are still signed in.
        for _ in range(2):
            keys = http.get("/keys/")
            assert keys.status_code == 200, keys.headers.get("location")


def test_password_reset_answers_alike_for_existing_and_unknown_addresses(live, cast):
    answers = {}
    for email in ("olivia@acme.test", "nobody@acme.test"):
        with httpx2.Client(base_url=live.base, headers=_own_address(), timeout=30) as http:
            answer = _post(http, "/password/reset/", {"email": email})
            answers[email] = (answer.status_code, answer.headers.get("location"))
            sent = http.get("/password/reset/sent/")
            assert sent.status_code == 200
    assert answers["olivia@acme.test"] == answers["nobody@acme.test"] == (302, "/password/reset/sent/")


def test_the_outage_was_logged_once_and_nothing_crashed(live):
    # Runs last in the module: by now every test above has met the outage.
    log = live.log.read_text()
    assert log.count("Redis unreachable") == 1, log[-3000:]
    assert "Traceback" not in log, log[-3000:]
