"""Latency table of the MCP tools' operations on a seed_bench database: store, REST or MCP.

Usage (after `python manage.py seed_bench --notes 100000 --hot-notes 20000 --hot-notes 1000`):
    python tools/bench/bench_latency.py --via store [--projects hot-1000,hot-20000] [--runs 50]
    python tools/bench/bench_latency.py --via rest   # Django test client, whole request; store timed too
    python tools/bench/bench_latency.py --via mcp    # official MCP client, streamable HTTP, live uvicorn
Database: KNOWNBASE_DB_NAME (default knownbase_bench). `--via rest` and `--via mcp` time the same
calls through the store in this process too and print the ratio of medians (target ≤ 1.5×). The MCP
server is a separate uvicorn process running this checkout, one client session for every call.
remember is timed on each status path; its inputs are built to hit it (a base note is written untimed
first), and the statuses actually returned are counted in the last column.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "knownbase.settings")
os.environ.setdefault("KNOWNBASE_DB_NAME", "knownbase_bench")

import django

django.setup()

from django.conf import settings
from django.db import connection

from tools.bench.bench_engine import percentiles
from tools.bench.corpus import sentence

QUERIES = [
    "webhook retries double charges",
    "session tokens auth gateway",
    "ledger migrations advisory locks",
    "rate limiting redis sliding window",
]


@dataclass
class Operation:
    """One row: a tool, its arguments for run i, and (for remember) an untimed setup and the status
    the inputs are built to reach."""

    label: str
    tool: str
    arguments: Callable[[int], dict[str, Any]]
    setup: Callable[[int], None] | None = None
    expect: str = ""


def operations(project: str, note_ids: list[str], principal: Any, nonce: str) -> list[Operation]:
    from memory import store

    rng = random.Random(5)

    def subject(i: int) -> str:
        return f"service{nonce}x{i}"

    def base(text: Callable[[int], str], kind: str = "fact") -> Callable[[int], None]:
        return lambda i: store.remember(principal, project, text(i), type=kind) and None

    def restated(i: int) -> str:
        return f"Deploys of {subject(i)} happen on Tuesdays."

    def reversal(i: int, first: str, second: str) -> str:
        return f"Use {first} instead of {second} for the sessions of {subject(i)}."

    rows = [
        Operation(
            f"get_context {detail}{' + query' if query else ''}",
            "get_context",
            (
                lambda d, q: (
                    lambda i: {"project": project, "detail": d} | ({"query": QUERIES[i % 4]} if q else {})
                )
            )(detail, query),
        )
        for detail in ("lean", "balanced", "deep")
        for query in (False, True)
    ]
    rows += [
        Operation(
            "remember → created",
            "remember",
            lambda i: {"project": project, "content": f"{sentence(rng)} Owned by {subject(i)}c."},
            expect="created",
        ),
        Operation(
            "remember → duplicate",
            "remember",
            lambda i: {"project": project, "content": f"The {subject(i)}d ledger is kept in PostgreSQL."},
            setup=base(lambda i: f"The {subject(i)}d ledger is kept in PostgreSQL."),
            expect="duplicate",
        ),
        Operation(
            "remember → updated",
            "remember",
            lambda i: {
                "project": project,
                "content": restated(i)[:-1] + ", after the weekly planning meeting, and never on Fridays.",
            },
            setup=base(restated),
            expect="updated",
        ),
        Operation(
            "remember → conflict",
            "remember",
            lambda i: {
                "project": project,
                "content": reversal(i, "JWTs", "opaque tokens"),
                "type": "decision",
            },
            setup=base(lambda i: reversal(i, "opaque tokens", "JWTs"), kind="decision"),
            expect="conflict",
        ),
        Operation(
            "search_notes keyword",
            "search_notes",
            lambda i: {"query": QUERIES[i % 4], "project": project, "semantic": False},
        ),
        Operation("search_notes hybrid", "search_notes", lambda i: {"query": QUERIES[i % 4], "project": project}),
        Operation("get_changes_since, page of 50", "get_changes_since", lambda i: {"project": project, "limit": 50}),
        Operation("get_notes, batch of 1", "get_notes", lambda i: {"ids": note_ids[i % len(note_ids) : i % len(note_ids) + 1]}),
        Operation("get_notes, batch of 20", "get_notes", lambda i: {"ids": note_ids[:20]}),
    ]  # fmt: skip
    return rows


def status_of(tool: str, answer: dict[str, Any]) -> str:
    if "error" in answer:
        code = str(answer["error"].get("code", answer["error"]))
        return code if code == "conflict" else f"error {code}"  # REST answers a conflict with 409
    return str(answer.get("status", "ok")) if tool == "remember" else "ok"


class StoreCaller:
    def __init__(self, principal: Any) -> None:
        self.principal = principal

    def __call__(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        from memory import store

        result: dict[str, Any] = getattr(store, tool)(self.principal, **arguments)
        return result


class RestCaller:
    """The REST equivalent of each tool through Django's test client (middleware, auth, throttle)."""

    def __init__(self, raw_key: str) -> None:
        from django.test import Client

        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
        self.client = Client(HTTP_AUTHORIZATION=f"Bearer {raw_key}")

    def __call__(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        args = dict(arguments)
        if tool == "remember":
            project = args.pop("project")
            response = self.client.post(
                f"/api/v1/projects/{project}/remember", args, content_type="application/json"
            )
        elif tool == "get_notes":
            response = self.client.get("/api/v1/notes", {"ids": args["ids"]})
        elif tool == "search_notes":
            response = self.client.get("/api/v1/search", args)
        else:
            project = args.pop("project")
            path = {"get_context": "context", "get_changes_since": "changes"}[tool]
            response = self.client.get(f"/api/v1/projects/{project}/{path}", args)
        answer: dict[str, Any] = response.json()
        if response.status_code >= 400 and "error" not in answer:
            answer = {"error": {"code": response.status_code}}
        return answer


class McpCaller:
    """One session of the official MCP client against a uvicorn process serving this checkout."""

    def __init__(self, raw_key: str) -> None:
        import anyio.from_thread
        import httpx2
        from mcp import Client
        from mcp.client.streamable_http import streamable_http_client

        port = free_port()
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.server = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "knownbase.asgi:application", "--host", "127.0.0.1",
             "--port", str(port), "--log-level", "warning"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        self.url = f"http://127.0.0.1:{port}/mcp"
        wait_for_port(port, self.server)
        self.portal_cm = anyio.from_thread.start_blocking_portal()
        self.portal = self.portal_cm.__enter__()
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {raw_key}"}, timeout=60)
        # Entered and left in one task of the portal's loop (anyio's cancel scopes require it).
        self.client_cm = self.portal.wrap_async_context_manager(
            Client(streamable_http_client(self.url, http_client=http))
        )
        self.client = self.client_cm.__enter__()

    def __call__(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = self.portal.call(self.client.call_tool, tool, arguments)
        answer: dict[str, Any] = result.structured_content or {}
        if result.is_error and "error" not in answer:
            answer = {"error": {"code": "tool error"}}
        return answer

    def close(self) -> None:
        try:
            self.client_cm.__exit__(None, None, None)
            self.portal_cm.__exit__(None, None, None)
        finally:
            self.server.terminate()
            self.server.wait(timeout=20)


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, server: subprocess.Popen[bytes]) -> None:
    import socket

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("uvicorn exited before listening")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise SystemExit("uvicorn did not start within 60 s")


def measure(call: Callable[[str, dict[str, Any]], dict[str, Any]], row: Operation, runs: int, offset: int) -> tuple[list[float], Counter[str], float]:  # fmt: skip
    samples: list[float] = []
    statuses: Counter[str] = Counter()
    busy = 0.0
    for run in range(runs):
        i = offset + run
        if row.setup is not None:
            row.setup(i)
        arguments = row.arguments(i)
        start = time.perf_counter()
        answer = call(row.tool, arguments)
        elapsed = time.perf_counter() - start
        busy += elapsed
        samples.append(elapsed * 1000)
        statuses[status_of(row.tool, answer)] += 1
    return samples, statuses, runs / busy


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--via", choices=["store", "rest", "mcp"], default="store")
    parser.add_argument("--team", default="bench-seed", help="a team seeded by seed_bench")
    parser.add_argument("--projects", default="hot-1000,hot-20000", help="comma-separated project slugs")
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--only", default="", help="time only the rows whose label contains this")
    args = parser.parse_args()
    logging.getLogger("celery").setLevel(logging.WARNING)  # eager tasks log each success
    logging.getLogger("django.request").setLevel(logging.ERROR)  # REST's expected 409 conflicts
    for name in ("httpx", "httpx2", "mcp"):
        logging.getLogger(name).setLevel(logging.WARNING)

    from accounts import actions
    from accounts.models import Team, User
    from billing import actions as billing_actions
    from billing.models import Plan
    from memory.models import Note, Project

    team = Team.objects.get(slug=args.team)
    owner = User.objects.get(email=f"{args.team}-owner@example.test")
    principal = actions.owner_principal(team, owner, client_name="bench")
    # The plan's per-minute request limit would throttle a sequential bench: lifted in this bench database.
    Plan.objects.filter(pk=Plan.of_team(team.pk).pk).update(requests_per_minute=1_000_000)
    caller: Any = None
    key = None
    if args.via != "store":
        key, raw_key = billing_actions.issue_api_key(team, owner, name=f"bench {args.via}")
        caller = RestCaller(raw_key) if args.via == "rest" else McpCaller(raw_key)
    direct = StoreCaller(principal)
    nonce = f"{int(time.time()) % 1_000_000:06d}"
    total_notes = Note.objects.count()
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
    print(
        f"via {args.via}; database {settings.DATABASES['default']['NAME']}: {total_notes:,} notes; "
        f"{args.runs} runs per row (after 5 warm-up calls); load average {os.getloadavg()[0]:.2f}"
    )
    head = "| project notes | operation | p50 ms | p95 ms | p99 ms | calls/s |"
    line = "| --- | --- | --- | --- | --- | --- |"
    if caller is not None:
        head += f" store p50 ms | {args.via}/store p50 |"
        line += " --- | --- |"
    print(head + " statuses |")
    print(line + " --- |")
    try:
        for slug in args.projects.split(","):
            project = Project.objects.get(team=team, slug=slug)
            size = Note.objects.filter(project=project, deleted_at__isnull=True).count()
            note_ids = list(
                Note.objects.filter(project=project, deleted_at__isnull=True, visibility="team")
                .order_by("-updated_at")
                .values_list("public_id", flat=True)[:200]
            )
            for row in operations(slug, note_ids, principal, nonce):
                if args.only not in row.label:
                    continue
                measure(caller or direct, row, 5, offset=10_000)  # warm-up, other inputs
                samples, statuses, rate = measure(caller or direct, row, args.runs, offset=0)
                p50, p95, p99 = percentiles(samples)
                cells = f"| {size:,} | {row.label} | {p50:.1f} | {p95:.1f} | {p99:.1f} | {rate:.0f} |"
                if caller is not None:
                    store_samples, _, _ = measure(direct, row, args.runs, offset=20_000)
                    store_p50 = percentiles(store_samples)[0]
                    cells += f" {store_p50:.1f} | {p50 / store_p50:.2f}× |"
                seen = ", ".join(f"{name} {count}" for name, count in statuses.most_common())
                print(f"{cells} {seen} |", flush=True)
    finally:
        if isinstance(caller, McpCaller):
            caller.close()
        if key is not None:  # a key per run would reach the plan's key cap after a few runs
            actions.revoke_api_key(key, actor=principal)


if __name__ == "__main__":
    main()
