"""Load run: N concurrent MCP clients against the production shape on loopback, for a bounded time.

Usage: .venv/bin/python tools/bench/load_run.py [--clients 32] [--seconds 60] [--notes 3000]

It starts and stops everything itself: seeds its own database (KNOWNBASE_DB_NAME=knownbase_load on
the embedded server) with a few thousand embedded notes, then runs `uvicorn --workers 2`, one Celery
worker (which embeds every write) and uses the machine's Redis (127.0.0.1:6379) as broker, cache and
rate-limit store. Each client is its own user with its own API key and keeps one MCP session (the
official client, streamable HTTP) for the run, calling a realistic mix: get_context 20 %,
search_notes 30 %, remember 20 %, reads 30 % (get_notes and get_changes_since, half each).

Printed: throughput, errors, latency p50 / p95 / p99 overall and per tool, the machine's load, and
the write check: for every client, the notes stored under its name are exactly those it was told
were created (none lost, none duplicated).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

REDIS_URL = os.environ.get("LOAD_REDIS_URL", "redis://127.0.0.1:6379/9")
RUN = os.getpid()
QUEUE = f"knownbase-load-{RUN}"
# Every process (this one, the web workers, the Celery worker) shares the database, Redis and key.
SHARED_ENV = {
    "DJANGO_SETTINGS_MODULE": "knownbase.settings",
    "KNOWNBASE_DB_NAME": os.environ.get("KNOWNBASE_DB_NAME", "knownbase_load"),
    "REDIS_URL": REDIS_URL,
    "CELERY_QUEUE": QUEUE,
    "SECRET_KEY": secrets.token_urlsafe(48),
    "DEBUG": "false",
    "LOG_LEVEL": "WARNING",
    # 32 clients on one loopback address: the per-address limit in front of /mcp would be the
    # thing measured. Per-credential plan rates stay on (the team plan allows 6,000 a minute).
    "RATE_LIMIT_PER_IP_PER_MINUTE": "0",
}
os.environ.update(SHARED_ENV)

MIX = [
    ("get_context", 20),
    ("search_notes", 30),
    ("remember", 20),
    ("get_notes", 15),
    ("get_changes_since", 15),
]
QUERIES = [
    "webhook retries double charges",
    "session tokens auth gateway",
    "ledger migrations",
    "rate limiting redis",
    "how do we deploy the billing worker",
    "why did the export job fail",
]


@dataclass
class ClientLog:
    name: str
    key: str
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    error_samples: list[str] = field(default_factory=list)
    created: set[str] = field(default_factory=set)
    remember_status: dict[str, int] = field(default_factory=lambda: defaultdict(int))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def seed(clients: int, notes: int, reuse: bool) -> tuple[list[str], list[str]]:
    """A fresh team with `notes` embedded notes in project "hot" (with `reuse`, the last run's team
    when it has that many: embedding them takes minutes); one new member and API key per client."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from accounts import actions
    from accounts.models import Membership, Role, Team, User
    from billing import actions as billing_actions
    from billing.models import Plan
    from memory.models import Note, Project
    from memory.notes.lifecycle import content_hash
    from tools.bench.corpus import notes as corpus_notes

    call_command("migrate", verbosity=0)
    project = Project.objects.filter(team__slug="load", slug="hot").first()
    if reuse and project is not None and Note.objects.filter(project=project).count() >= notes:
        team = project.team
        print(f"reusing {Note.objects.filter(project=project).count()} notes of the last run", flush=True)
    else:
        Team.objects.filter(slug="load").delete()
        User.objects.filter(email__endswith="@load.test").delete()
        owner = actions.create_user("owner@load.test")
        team = actions.create_team(owner, "Load", "load")
        billing_actions.change_plan(team, Plan.objects.get(code="team"))
        project = Project.objects.create(team=team, slug="hot", name="Hot project")
        started = time.perf_counter()
        Note.objects.bulk_create(
            [
                Note(team=team, project=project, author=owner, content_hash=content_hash(str(n["body"])), **n)
                for n in corpus_notes(notes)
            ],
            batch_size=1000,
        )
        call_command("backfill_embeddings", verbosity=0, stdout=io.StringIO())
        print(f"seeded {notes} embedded notes in {time.perf_counter() - started:.1f} s", flush=True)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memory_note")
    keys = []
    for i in range(clients):
        user = actions.create_user(client_email(i))
        Membership.objects.create(team=team, user=user, role=Role.MEMBER)
        keys.append(actions.issue_api_key(team, user, name=f"load client {i}")[1])
    ids = list(Note.objects.filter(project=project).values_list("public_id", flat=True)[:2000])
    connection.close()
    return keys, ids


def client_email(i: int) -> str:
    return f"client{i}-{RUN}@load.test"  # this run's own clients, also when the team is reused


def start(command: list[str]) -> subprocess.Popen[bytes]:
    # Its own session, so stopping it also stops the processes it forked (uvicorn's workers); the
    # banners go, warnings and errors (stderr) stay.
    return subprocess.Popen(
        command, cwd=ROOT, env=dict(os.environ), start_new_session=True, stdout=subprocess.DEVNULL
    )


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


async def wait_ready(base: str, timeout: float = 90.0) -> None:
    import httpx2

    deadline = time.monotonic() + timeout
    async with httpx2.AsyncClient() as http:
        while time.monotonic() < deadline:
            try:
                if (await http.get(f"{base}/readyz")).status_code == 200:
                    return
            except httpx2.HTTPError:
                pass
            await asyncio.sleep(0.3)
    raise RuntimeError("the web workers did not become ready")


async def run_client(log: ClientLog, url: str, ids: list[str], until: float, seed_value: int) -> None:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    from tools.bench.corpus import sentence

    rng = random.Random(seed_value)
    names, weights = zip(*MIX, strict=True)
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {log.key}"}, timeout=60)
    cursor: str | None = None
    count = 0
    async with Client(streamable_http_client(url, http_client=http)) as client:
        while time.monotonic() < until:
            tool = rng.choices(names, weights)[0]
            count += 1
            if tool == "get_context":
                arguments: dict[str, Any] = {"project": "hot"}
                if rng.random() < 0.5:
                    arguments["query"] = rng.choice(QUERIES)
            elif tool == "search_notes":
                arguments = {"query": rng.choice(QUERIES), "project": "hot"}
            elif tool == "remember":
                # Unique per client and call, so the write check can count them.
                arguments = {
                    "project": "hot",
                    "content": f"{sentence(rng)} Seen by {log.name} in run {RUN}, call {count}.",
                }
            elif tool == "get_notes":
                arguments = {"ids": rng.sample(ids, 5)}
            else:
                arguments = {"project": "hot", "limit": 50}
                if cursor:
                    arguments["cursor"] = cursor
            began = time.perf_counter()
            try:
                result = await client.call_tool(tool, arguments)
            except Exception as exc:
                log.errors[tool] += 1
                if len(log.error_samples) < 3:
                    log.error_samples.append(f"{tool}: {type(exc).__name__}: {exc}")
                continue
            log.latencies[tool].append((time.perf_counter() - began) * 1000)
            content = result.structured_content or {}
            if result.is_error:
                log.errors[tool] += 1
                if len(log.error_samples) < 3:
                    log.error_samples.append(f"{tool}: {content.get('error')}")
                continue
            if tool == "remember":
                log.remember_status[content["status"]] += 1
                if content["status"] == "created":
                    log.created.add(content["note"]["id"])
            elif tool == "get_changes_since":
                cursor = content.get("cursor") if content.get("has_more") else None


def pick(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def report(logs: list[ClientLog], seconds: float, load_before: str, load_after: str) -> bool:
    every = sorted(x for log in logs for samples in log.latencies.values() for x in samples)
    errors = sum(sum(log.errors.values()) for log in logs)
    calls = len(every) + errors
    print(
        f"\n{len(logs)} clients, {seconds:.1f} s: {calls} calls, {calls / seconds:.1f} calls/s, {errors} errors"
    )
    print(f"load average before: {load_before}; after: {load_after}")
    print(f"\n{'tool':20} {'calls':>7} {'errors':>6} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
    for tool, _ in MIX:
        samples = sorted(x for log in logs for x in log.latencies[tool])
        failed = sum(log.errors[tool] for log in logs)
        median = statistics.median(samples) if samples else float("nan")
        print(
            f"{tool:20} {len(samples) + failed:7} {failed:6} {median:8.1f} {pick(samples, 0.95):8.1f} "
            f"{pick(samples, 0.99):8.1f}"
        )
    median = statistics.median(every) if every else float("nan")
    print(f"{'all':20} {calls:7} {errors:6} {median:8.1f} {pick(every, 0.95):8.1f} {pick(every, 0.99):8.1f}")
    statuses: dict[str, int] = defaultdict(int)
    for log in logs:
        for status, n in log.remember_status.items():
            statuses[status] += n
    print(f"remember outcomes: {dict(statuses)}")
    for sample in [s for log in logs for s in log.error_samples][:5]:
        print(f"  error: {sample}")
    return errors == 0


def cpu_seconds(web: subprocess.Popen[bytes], worker: subprocess.Popen[bytes]) -> dict[str, float]:
    """CPU seconds (user + system) used so far by each part of the system, to say where time goes."""
    import psutil

    def tree(pid: int) -> float:
        total = 0.0
        root = psutil.Process(pid)
        for process in [root, *root.children(recursive=True)]:
            try:
                times = process.cpu_times()
            except psutil.NoSuchProcess:
                continue
            total += times.user + times.system
        return total

    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        backends = [row[0] for row in cursor.fetchall()]
    postgres = 0.0
    for pid in backends:
        try:
            times = psutil.Process(pid).cpu_times()
        except psutil.NoSuchProcess:
            continue
        postgres += times.user + times.system
    me = psutil.Process().cpu_times()
    return {
        "web (2 uvicorn workers)": tree(web.pid),
        "celery worker": tree(worker.pid),
        "postgres backends": postgres,
        "load generator (this process)": me.user + me.system,
    }


def report_cpu(before: dict[str, float], after: dict[str, float], calls: int, seconds: float) -> None:
    print(f"\n{'CPU by part':40} {'cpu s':>7} {'cores':>6} {'ms/call':>8}")
    for part in after:
        used = after[part] - before.get(part, 0.0)
        print(f"{part:40} {used:7.1f} {used / seconds:6.2f} {1000 * used / max(calls, 1):8.2f}")
    print(f"(the machine has {os.cpu_count()} cores; other users' processes are not counted)")


def check_writes(logs: list[ClientLog], since: Any) -> bool:
    """Every note a client was told it created exists once under its name, and no other appeared."""
    from django.db import connection

    from memory.models import Note

    connection.close()  # the seeding connection may have been closed by the server meanwhile
    bad = 0
    for i, log in enumerate(logs):
        stored = list(
            Note.objects.filter(
                project__team__slug="load", author__email=client_email(i), created_at__gte=since
            ).values_list("public_id", "content_hash")
        )
        stored_ids = {public_id for public_id, _ in stored}
        hashes = [content_hash for _, content_hash in stored]
        lost = log.created - stored_ids
        unexpected = stored_ids - log.created
        duplicated = len(hashes) - len(set(hashes))
        if lost or unexpected or duplicated:
            bad += 1
            print(f"  {log.name}: lost {len(lost)}, unexpected {len(unexpected)}, duplicated {duplicated}")
    told = sum(len(log.created) for log in logs)
    verdict = "OK" if bad == 0 else f"{bad} clients differ"
    print(f"write check: {told} notes told created, stored exactly once each per client: {verdict}")
    return bad == 0


async def drive(url: str, keys: list[str], ids: list[str], seconds: float) -> tuple[list[ClientLog], float]:
    logs = [ClientLog(name=f"client{i}", key=key) for i, key in enumerate(keys)]
    began = time.monotonic()
    until = began + seconds
    await asyncio.gather(*(run_client(log, url, ids, until, i) for i, log in enumerate(logs)))
    return logs, time.monotonic() - began


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--notes", type=int, default=3000)
    parser.add_argument("--reuse", action="store_true", help="keep the last run's seeded notes")
    args = parser.parse_args()

    import redis

    redis.Redis.from_url(REDIS_URL).ping()
    keys, ids = seed(args.clients, args.notes, args.reuse)
    from django.utils import timezone

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    os.environ["SITE_URL"] = base
    python = sys.executable
    web = start(
        [python, "-m", "uvicorn", "knownbase.asgi:application", "--host", "127.0.0.1", "--port", str(port),
         "--workers", "2", "--lifespan", "on", "--log-level", "warning", "--no-access-log"]
    )  # fmt: skip
    worker = start(
        [python, "-m", "celery", "-A", "knownbase", "worker", "-Q", QUEUE, "--concurrency=1",
         "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=WARNING"]
    )  # fmt: skip
    try:
        asyncio.run(wait_ready(base))
        # Warm each worker (model load, pools, first queries) before the clock starts.
        warm, _ = asyncio.run(drive(f"{base}/mcp", keys[:4], ids, 5))
        warm_errors = [sample for log in warm for sample in log.error_samples]
        print(
            f"warm-up: {sum(sum(log.errors.values()) for log in warm)} errors {warm_errors[:2]}", flush=True
        )
        since = timezone.now()  # the warm-up's writes are not counted in the write check
        load_before = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        cpu_before = cpu_seconds(web, worker)
        logs, elapsed = asyncio.run(drive(f"{base}/mcp", keys, ids, args.seconds))
        cpu_after = cpu_seconds(web, worker)
        load_after = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    finally:
        stop(web)
        stop(worker)
        redis.Redis.from_url(REDIS_URL).delete(QUEUE)
    ok = report(logs, elapsed, load_before, load_after)
    calls = sum(len(samples) for log in logs for samples in log.latencies.values())
    report_cpu(cpu_before, cpu_after, calls, elapsed)
    ok = check_writes(logs, since) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
