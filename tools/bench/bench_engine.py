"""Server-side latency of the memory engine on one project: get_context and remember.

Usage: .venv/bin/python tools/bench/bench_engine.py [--notes 1000] [--runs 200] [--worker]
Uses its own database (knownbase_bench) on the embedded server; prints p50 / p95 / p99 in ms.
--worker: the note's embedding is enqueued for a Celery worker (an in-memory broker here, so nothing
consumes it) instead of computed inline after commit, as in production with REDIS_URL set: the time
until a write is acknowledged.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "knownbase.settings")
os.environ.setdefault("KNOWNBASE_DB_NAME", "knownbase_bench")

import django

django.setup()

from django.core.management import call_command
from django.db import connection

from tools.bench.corpus import notes, sentence


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)

    def pick(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return statistics.median(ordered), pick(0.95), pick(0.99)


def timed(runs: int, work: Callable[[int], object]) -> list[float]:
    samples = []
    for i in range(runs):
        start = time.perf_counter()
        work(i)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--worker", action="store_true")
    args = parser.parse_args()
    if args.worker:
        from django.conf import settings

        from knownbase.celery import app

        settings.CELERY_TASK_ALWAYS_EAGER = False
        app.conf.task_always_eager = False
        app.conf.broker_url = "memory://"

    call_command("migrate", verbosity=0)
    import random

    from accounts import actions
    from accounts.models import Team, User
    from billing import actions as billing_actions
    from billing.models import Plan
    from memory import store
    from memory.models import Note, Project
    from memory.notes.lifecycle import content_hash

    Team.objects.filter(slug="bench").delete()
    User.objects.filter(email="bench@example.test").delete()
    user = actions.create_user("bench@example.test")
    team = actions.create_team(user, "Bench", "bench")
    billing_actions.change_plan(team, Plan.objects.get(code="team"))
    project = Project.objects.create(team=team, slug="hot", name="Hot project")
    Note.objects.bulk_create(
        [
            Note(team=team, project=project, author=user, content_hash=content_hash(str(n["body"])), **n)
            for n in notes(args.notes)
        ],
        batch_size=1000,
    )
    with connection.cursor() as cursor:
        # VACUUM sets the visibility map as autovacuum would: index-only scans (the notes cap count).
        cursor.execute("VACUUM ANALYZE memory_note")
    principal = actions.owner_principal(team, user, client_name="bench")
    first = Note.objects.filter(project=project).order_by("pk").first()
    assert first is not None
    rng = random.Random(3)
    queries = [
        "webhook retries double charges",
        "session tokens auth gateway",
        "ledger migrations",
        "rate limiting redis",
    ]

    rows = []
    for name, work in [
        ("get_context balanced + query", lambda i: store.get_context(principal, "hot", query=queries[i % 4])),
        ("get_context lean, no query", lambda i: store.get_context(principal, "hot", detail="lean")),
        (
            "remember (new statement)",
            lambda i: store.remember(principal, "hot", f"{sentence(rng)} Run {i}."),
        ),
        ("remember (exact duplicate)", lambda i: store.remember(principal, "hot", str(first.body))),
        ("search_notes keyword", lambda i: store.search_notes(principal, queries[i % 4], project="hot")),
        ("get_changes_since page 50", lambda i: store.get_changes_since(principal, "hot", limit=50)),
    ]:
        timed(10, work)  # warm-up
        p50, p95, p99 = percentiles(timed(args.runs, work))
        rows.append((name, p50, p95, p99))

    total = Note.objects.filter(project=project).count()
    print(
        f"\nproject notes: {total} (seeded {args.notes}), runs per row: {args.runs}, server-side store calls, "
        f"embedding {'enqueued (--worker)' if args.worker else 'inline'}"
    )
    print(f"{'operation':32} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
    for name, p50, p95, p99 in rows:
        print(f"{name:32} {p50:8.1f} {p95:8.1f} {p99:8.1f}")


if __name__ == "__main__":
    main()
