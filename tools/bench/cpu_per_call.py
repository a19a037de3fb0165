"""The web process's own CPU per MCP call, per tool: what one call costs the server, read from /proc.

Usage: .venv/bin/python tools/bench/cpu_per_call.py [--calls 60] [--notes 100] [--checkout PATH]

Seeds its own database (KNOWNBASE_DB_NAME=knownbase_cpu on the embedded server, or DATABASE_URL) with
one team, an API key and a project of `--notes` embedded notes, starts one uvicorn process serving
this checkout (or `--checkout`, to measure another tree against the same data), and connects one
official MCP client (streamable HTTP). Each tool is called a few times untimed, then `--calls` times
while the server's user + system CPU (all its threads) is read from /proc/<pid>/stat before and after.
CPU time, unlike wall time, holds steady on a busy machine; the load average is printed with the table.
"""

from __future__ import annotations

import argparse
import io
import os
import secrets
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

SHARED_ENV = {
    "DJANGO_SETTINGS_MODULE": "knownbase.settings",
    "KNOWNBASE_DB_NAME": os.environ.get("KNOWNBASE_DB_NAME", "knownbase_cpu"),
    # This checkout's embedded server, also for a `--checkout` tree (whose own would be empty).
    "KNOWNBASE_DATA_DIR": os.environ.get("KNOWNBASE_DATA_DIR", str(ROOT / ".data")),
    "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(48),
    "DEBUG": "false",
    "LOG_LEVEL": "WARNING",
    # One client on loopback: the per-address limit is not what is measured.
    "RATE_LIMIT_PER_IP_PER_MINUTE": "0",
}
os.environ.update(SHARED_ENV)

TEAM = "cpu-bench"
PROJECT = "notes"
WARMUP = 5
TICKS = os.sysconf("SC_CLK_TCK")


def seed(notes: int) -> tuple[str, list[str]]:
    """A fresh team on the team plan (its request rate lifted) with `notes` embedded notes and one
    member's API key; returns the raw key and the notes' ids."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from accounts import actions
    from accounts.models import Team, User
    from billing import actions as billing_actions
    from billing.models import Plan
    from memory.models import Note, Project
    from memory.notes.lifecycle import content_hash
    from tools.bench.corpus import notes as corpus_notes

    call_command("migrate", verbosity=0)
    Team.objects.filter(slug=TEAM).delete()
    User.objects.filter(email__endswith="@cpu-bench.test").delete()
    owner = actions.create_user("owner@cpu-bench.test")
    team = actions.create_team(owner, "CPU bench", TEAM)
    plan = Plan.objects.get(code="team")
    billing_actions.change_plan(team, plan)
    # A sequential client would otherwise meet the plan's per-minute limit.
    Plan.objects.filter(pk=plan.pk).update(requests_per_minute=1_000_000)
    project = Project.objects.create(team=team, slug=PROJECT, name="CPU bench")
    Note.objects.bulk_create(
        [
            Note(team=team, project=project, author=owner, content_hash=content_hash(str(n["body"])), **n)
            for n in corpus_notes(notes)
        ]
    )
    call_command("backfill_embeddings", verbosity=0, stdout=io.StringIO())
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memory_note")
    _, raw = actions.issue_api_key(team, owner, name="cpu bench")
    ids = list(Note.objects.filter(project=project).values_list("public_id", flat=True)[:5])
    connection.close()
    return raw, ids


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("uvicorn exited before listening")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise SystemExit("uvicorn did not start within 60 s")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of every thread of `pid` so far."""
    # The command name (field 2) may hold spaces: fields are counted after its closing parenthesis.
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=60)
    parser.add_argument("--notes", type=int, default=100)
    parser.add_argument("--checkout", default=str(ROOT), help="the tree uvicorn serves (default: this one)")
    args = parser.parse_args()

    raw_key, ids = seed(args.notes)
    checkout = Path(args.checkout).resolve()
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "knownbase.asgi:application", "--host", "127.0.0.1",
         "--port", str(port), "--lifespan", "on", "--log-level", "warning"],
        cwd=checkout, env={**os.environ, "PYTHONPATH": str(checkout)}, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        wait_for_port(port, server)
        rows = measure(f"http://127.0.0.1:{port}/mcp", raw_key, ids, server.pid, args.calls)
    finally:
        server.terminate()
        server.wait(timeout=20)
    print(f"\nserved: {checkout}   notes: {args.notes}   calls per tool: {args.calls}")
    print(f"load average (1, 5, 15 min): {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'tool':<24} {'web CPU ms/call':>16} {'wall p50 ms':>12}")
    for label, cpu_ms, p50 in rows:
        print(f"{label:<24} {cpu_ms:>16.1f} {p50:>12.1f}")


def measure(url: str, raw_key: str, ids: list[str], pid: int, calls: int) -> list[tuple[str, float, float]]:
    import anyio.from_thread
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    queries = ["webhook retries double charges", "session tokens auth gateway", "ledger migrations"]
    tools: list[tuple[str, str, Callable[[int], dict[str, Any]]]] = [
        ("list_projects", "list_projects", lambda i: {}),
        ("get_notes", "get_notes", lambda i: {"ids": ids[:3]}),
        ("search_notes keyword", "search_notes", lambda i: {"query": queries[i % 3], "project": PROJECT, "semantic": False}),
        ("search_notes hybrid", "search_notes", lambda i: {"query": queries[i % 3], "project": PROJECT}),
        ("get_context", "get_context", lambda i: {"project": PROJECT, "query": queries[i % 3]}),
    ]  # fmt: skip
    rows = []
    with anyio.from_thread.start_blocking_portal() as portal:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {raw_key}"}, timeout=60)
        with portal.wrap_async_context_manager(
            Client(streamable_http_client(url, http_client=http))
        ) as client:
            for label, tool, arguments in tools:
                for i in range(WARMUP):
                    check(portal.call(client.call_tool, tool, arguments(i)), label)
                walls = []
                before = cpu_seconds(pid)
                for i in range(calls):
                    started = time.perf_counter()
                    result = portal.call(client.call_tool, tool, arguments(i))
                    walls.append((time.perf_counter() - started) * 1000)
                    check(result, label)
                used = cpu_seconds(pid) - before
                rows.append((label, used * 1000 / calls, statistics.median(walls)))
    return rows


def check(result: Any, label: str) -> None:
    if result.is_error:
        raise SystemExit(f"{label} failed: {result.structured_content}")


if __name__ == "__main__":
    main()
