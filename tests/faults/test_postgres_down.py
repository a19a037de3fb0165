"""PostgreSQL stopped under a running web process, then started again.

A private PostgreSQL (tests/private_postgres.py) serves one real uvicorn process. Acknowledged writes
go in through REST and MCP and are logged. With the server stopped, every MCP tool answers in-band
`unavailable`, REST answers 503 with Retry-After in its error shape, pages and the OAuth endpoints
503; each answer comes within the client's bound (generous: the point is "answers", not a time).
With the server started again the same process serves again, and every logged write is there.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult

from edge.errors import UNAVAILABLE_RETRY_AFTER
from mcp_gateway.tooling import TOOLS
from tests.live_mcp import free_port
from tests.private_postgres import PrivatePostgres, manage, private_postgres
from tests.web_process import web_environment, web_process

pytestmark = [pytest.mark.live_server, pytest.mark.slow]  # a PostgreSQL server and a web process

BOUND = 8.0  # seconds a client waits for any answer: far above the 2 s a web node takes to give up
PASSWORD = "correct horse battery"
EMAIL = "olivia@acme.test"
ACKNOWLEDGED = (200, 201)  # remember: created, or a duplicate/update of an existing note
REFUSED_BODY = "Chargebacks are answered within seven days."  # sent while the database is down
PROJECT = "payments"


@dataclass
class Site:
    base: str
    key: str
    server: PrivatePostgres
    process: Any
    # (door, note id, body) of every write the service acknowledged.
    write_log: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    with private_postgres() as server:
        server.create_database("knownbase")
        env = web_environment(
            DATABASE_URL=server.url("knownbase"),
            SECRET_KEY=secrets.token_urlsafe(48),
            DEBUG="false",
            EMBEDDINGS_PROVIDER="none",  # keyword search only: no model to load, no embedding tasks
            # A web node's own limits, not the suite's (the Makefile gives the suite a 30 s wait).
            DB_POOL_MAX_SIZE="10",
            DB_POOL_TIMEOUT_SECONDS="2",
            DB_CONNECT_TIMEOUT_SECONDS="2",
            LOG_LEVEL="ERROR",
        )
        manage(env, "migrate", "--noinput")
        created = manage(
            env,
            "bootstrap_team",
            "--email",
            EMAIL,
            "--password",
            PASSWORD,
            "--team",
            "acme",
            "--project",
            PROJECT,
        )
        key = str(json.loads(created)["api_key"])
        port = free_port()
        env["SITE_URL"] = f"http://127.0.0.1:{port}"
        with web_process(env, port) as (base, process):
            yield Site(base, key, server, process)


def _call_tool(site: Site, tool: str, arguments: dict[str, Any]) -> CallToolResult:
    async def run() -> CallToolResult:
        http = httpx2.AsyncClient(headers=site.headers, timeout=BOUND)
        async with Client(streamable_http_client(f"{site.base}/mcp", http_client=http)) as client:
            return await client.call_tool(tool, arguments)

    return anyio.run(run)


def _rest(site: Site, method: str, path: str, **kwargs: Any) -> httpx2.Response:
    return httpx2.request(method, f"{site.base}{path}", headers=site.headers, timeout=BOUND, **kwargs)


def _remember_rest(site: Site, text: str) -> httpx2.Response:
    return _rest(site, "POST", f"/api/v1/projects/{PROJECT}/remember", json={"content": text, "force": True})


def _signed_in(site: Site) -> httpx2.Client:
    client = httpx2.Client(base_url=site.base, timeout=BOUND, follow_redirects=False)
    client.get("/login/")
    token = client.cookies["csrftoken"]
    answer = client.post(
        "/login/", data={"username": EMAIL, "password": PASSWORD, "csrfmiddlewaretoken": token}
    )
    assert answer.status_code == 302, answer.text[:300]
    return client


def _arguments(note_id: str) -> dict[str, dict[str, Any]]:
    """Valid arguments for every tool (a tool added later without a line here fails the test)."""
    return {
        "get_context": {"project": PROJECT},
        "get_changes_since": {"project": PROJECT},
        "remember": {"project": PROJECT, "content": "Refunds settle in three business days."},
        "checkpoint": {"project": PROJECT, "summary": "Stopped while the database was away."},
        "search_notes": {"query": "settlement"},
        "get_notes": {"ids": [note_id]},
        "save_note": {"id": note_id, "title": "Settlement"},
        "patch_note": {"id": note_id, "op": "append", "text": "Also on Sundays."},
        "delete_note": {"id": note_id},
        "list_note_revisions": {"id": note_id},
        "get_note_revision": {"id": note_id, "version": 1},
        "relate_notes": {"from_id": note_id, "to_id": note_id, "kind": "related"},
        "list_projects": {},
        "create_project": {"name": "Ledger"},
        "rename_project": {"project": PROJECT, "name": "Payments"},
        "rename_tag": {"project": PROJECT, "old": "bank", "new": "banking"},
        "export_project": {"project": PROJECT},
        "get_usage": {},
        "report_code_change": {"project": PROJECT, "commit": "9f2c1e4", "paths": ["ledger/csv.py"]},
        "confirm_note": {"id": note_id},
    }


class Writer:
    """Remembers one fact after another through REST, in a thread, until stopped: the writes that
    straddle the stop and the start. Only HTTP here, no database connection of its own."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.statuses: list[int] = []
        self.acknowledged: list[tuple[str, str, str]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        n = 0
        while not self._stop.is_set():
            n += 1
            body = f"Ledger entry {n} of the straddling writer is posted before the daily close."
            try:
                answer = _remember_rest(self.site, body)
            except httpx2.HTTPError:
                self.statuses.append(0)  # no answer within the bound: counted, and refused below
            else:
                self.statuses.append(answer.status_code)
                if answer.status_code in ACKNOWLEDGED:
                    result = answer.json()
                    # A write judged a duplicate of an earlier one answers that note: its body.
                    written = body if result["status"] == "created" else result["note"]["body"]
                    self.acknowledged.append(("rest (during)", result["note"]["id"], written))
            self._stop.wait(0.1)

    def __enter__(self) -> Writer:
        self._thread.start()
        _wait_for(lambda: bool(self.acknowledged), "the writer's first acknowledged write")
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=60)


def _wait_for(condition: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def _wait_until_serving(site: Site, deadline_seconds: float = 60.0) -> None:
    deadline = time.monotonic() + deadline_seconds
    while time.monotonic() < deadline:
        try:
            if _rest(site, "GET", "/api/v1/projects").status_code == 200:
                return
        except httpx2.HTTPError:
            pass
        time.sleep(0.5)
    raise AssertionError("the service did not recover after PostgreSQL came back")


def test_postgres_down_answers_unavailable_everywhere_and_loses_no_acknowledged_write(site: Site) -> None:
    # Acknowledged writes through both doors, logged.
    for n in range(3):
        body = f"Settlement batch {n} is uploaded to the bank at 0{n}:00 UTC."
        answer = _remember_rest(site, body)
        assert answer.status_code == 201, answer.text[:300]
        site.write_log.append(("rest", answer.json()["note"]["id"], body))
        body = f"Payout run {n} is reconciled against the ledger by 1{n}:00 UTC."
        result = _call_tool(site, "remember", {"project": PROJECT, "content": body, "force": True})
        assert not result.is_error, result.structured_content
        assert result.structured_content is not None
        site.write_log.append(("mcp", result.structured_content["note"]["id"], body))
    browser = _signed_in(site)
    assert browser.get("/").status_code == 200
    note_id = site.write_log[0][1]

    writer = Writer(site)
    with writer:
        site.server.stop()
        try:
            _check_every_door_is_unavailable(site, browser, note_id)
        finally:
            site.server.start()
        # The same process serves again, without a restart.
        _wait_until_serving(site)
        _wait_for(
            lambda: writer.statuses[-1:] in ([200], [201]), "the writer's writes to be acknowledged again"
        )
    # Every write the straddling writer sent was acknowledged or refused with 503: none hung or failed.
    assert set(writer.statuses) <= {*ACKNOWLEDGED, 503}, writer.statuses
    assert 503 in writer.statuses  # it did write across the outage
    site.write_log.extend(writer.acknowledged)
    assert site.process.poll() is None
    assert browser.get("/").status_code == 200
    body = "Settlement files are checked for duplicates before upload."
    answer = _remember_rest(site, body)
    assert answer.status_code == 201, answer.text[:300]
    site.write_log.append(("rest", answer.json()["note"]["id"], body))

    # Every acknowledged write is there; the refused one is not.
    for door, written_id, written_body in site.write_log:
        read = _rest(site, "GET", f"/api/v1/notes/{written_id}")
        assert (door, read.status_code) == (door, 200), read.text[:300]
        assert read.json()["note"]["body"] == written_body
    found = _rest(site, "GET", "/api/v1/search", params={"query": "Chargebacks"}).json()
    assert all(REFUSED_BODY not in str(result) for result in found["results"])


def _check_every_door_is_unavailable(site: Site, browser: httpx2.Client, note_id: str) -> None:
    """With the database stopped: every tool, a set of REST endpoints, pages and OAuth endpoints."""
    # MCP: every tool, in-band `unavailable` with when to retry.
    arguments = _arguments(note_id)
    assert set(arguments) == set(TOOLS)
    for tool, args in arguments.items():
        result = _call_tool(site, tool, args)
        assert result.is_error, (tool, result.structured_content)
        assert result.structured_content is not None
        error = result.structured_content["error"]
        assert (tool, error["code"]) == (tool, "unavailable")
        assert error["retry_after"] == UNAVAILABLE_RETRY_AFTER

    # REST: 503, Retry-After, the API's error shape; a refused write is not acknowledged.
    for method, path, kwargs in [
        ("GET", "/api/v1/projects", {}),
        ("GET", f"/api/v1/projects/{PROJECT}/context", {}),
        ("GET", "/api/v1/search", {"params": {"query": "settlement"}}),
        ("GET", f"/api/v1/notes/{note_id}", {}),
        ("GET", "/api/v1/usage", {}),
        ("POST", f"/api/v1/projects/{PROJECT}/remember", {"json": {"content": REFUSED_BODY}}),
    ]:
        answer = _rest(site, method, path, **kwargs)
        assert (path, answer.status_code) == (path, 503), answer.text[:300]
        assert answer.headers["Retry-After"] == str(UNAVAILABLE_RETRY_AFTER)
        assert answer.json()["error"]["code"] == "unavailable"

    # Pages: the signed-in session lives in the database too; sign-in itself needs it.
    for path in ("/", "/keys/", f"/projects/{PROJECT}/"):
        page = browser.get(path)
        assert (path, page.status_code) == (path, 503)
        assert page.headers["Retry-After"] == str(UNAVAILABLE_RETRY_AFTER)
        assert "Temporarily unavailable" in page.text
        assert "Traceback" not in page.text
    anonymous = httpx2.Client(base_url=site.base, timeout=BOUND)
    anonymous.get("/login/")
    sign_in = anonymous.post(
        "/login/",
        data={
            "username": EMAIL,
            "password": PASSWORD,
            "csrfmiddlewaretoken": anonymous.cookies["csrftoken"],
        },
    )
    assert sign_in.status_code == 503

    # OAuth: the token and registration endpoints, in OAuth's error shape.
    token = httpx2.post(
        f"{site.base}/oauth/token/",
        data={
            "grant_type": "authorization_code",
            "code": "x",
            "client_id": "y",
            "code_verifier": "z" * 43,
        },
        timeout=BOUND,
    )
    registration = httpx2.post(
        f"{site.base}/oauth/register/",
        json={"client_name": "Probe", "redirect_uris": ["http://127.0.0.1:9/callback"]},
        timeout=BOUND,
    )
    for answer in (token, registration):
        assert answer.status_code == 503, answer.text[:300]
        assert answer.json()["error"] == "temporarily_unavailable"
        assert answer.headers["Retry-After"] == str(UNAVAILABLE_RETRY_AFTER)
