"""EXPLAIN ANALYZE of every SQL query the hot paths send, on bench_engine's hot project.

Usage: .venv/bin/python tools/bench/bench_engine.py --notes 20000 --runs 20   (seeds team "bench", project "hot")
       .venv/bin/python tools/bench/explain_hot.py [--embed] [--full]
--embed first computes the missing vectors (memory.tasks.embed_notes, in batches) so the vector query
has something to search. Each store call runs once to warm caches, then once captured; every SELECT it
sent is explained (ANALYZE, BUFFERS) inside a transaction that is rolled back. Prints, per query, the
plan's scan / sort / limit lines and the execution time (--full: the whole plan).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "knownbase.settings")
os.environ.setdefault("KNOWNBASE_DB_NAME", "knownbase_bench")

import django

django.setup()

from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

KEY_LINE = re.compile(r"Scan|Sort|Limit|Execution Time|Rows Removed|Index Cond|Recheck|->.*Join|Append")


class Rollback(Exception):
    pass


def explain(label: str, work: Callable[[], object], full: bool) -> None:
    work()  # warm: per-process caches, the query vector
    with CaptureQueriesContext(connection) as captured:
        try:
            with transaction.atomic():
                work()
                raise Rollback
        except Rollback:
            pass
    print(f"\n=== {label}: {len(captured.captured_queries)} queries")
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            for query in captured.captured_queries:
                sql = query["sql"]
                if sql.startswith("SET "):
                    cursor.execute(sql)
                    continue
                if not sql.startswith("SELECT") or "pg_advisory" in sql or "FROM pg_" in sql:
                    continue
                cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {sql}")
                lines = [row[0] for row in cursor.fetchall()]
                summary = re.sub(r"\s+", " ", sql)[:150]
                print(f"\n-- {summary}")
                for line in lines:
                    if full or KEY_LINE.search(line):
                        print("   " + line.rstrip())
            raise Rollback
    except Rollback:
        pass


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--embed", action="store_true")
    parser.add_argument("--full", action="store_true")
    parser.add_argument("--only", default="", help="explain only the paths whose label contains this")
    args = parser.parse_args()

    from accounts import actions
    from accounts.models import Team, User
    from memory import store
    from memory.models import Note, Project
    from memory.tasks import embed_notes

    team = Team.objects.get(slug="bench")
    user = User.objects.get(email="bench@example.test")
    project = Project.objects.get(team=team, slug="hot")
    if args.embed:
        missing = list(
            Note.objects.filter(project=project, embedding__isnull=True).values_list("pk", flat=True)
        )
        for start in range(0, len(missing), 256):
            embed_notes(missing[start : start + 256])
            print(f"\rembedded {min(start + 256, len(missing))}/{len(missing)}", end="", flush=True)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE memory_note")
    principal = actions.owner_principal(team, user, client_name="bench")
    some_ids = list(
        Note.objects.filter(project=project).order_by("-pk").values_list("public_id", flat=True)[:20]
    )
    old = Note.objects.filter(project=project).order_by("pk").first()
    assert old is not None
    paths: list[tuple[str, Callable[[], object]]] = [
        ("get_context balanced + query", lambda: store.get_context(principal, "hot", query="webhook retries")),
        ("get_context lean, no query", lambda: store.get_context(principal, "hot", detail="lean")),
        ("remember new statement", lambda: store.remember(principal, "hot", "The ledger now relies on a nightly cron.")),
        ("remember exact duplicate", lambda: store.remember(principal, "hot", old.body)),
        ("search_notes keyword", lambda: store.search_notes(principal, "webhook retries", project="hot", semantic=False)),
        ("search_notes hybrid", lambda: store.search_notes(principal, "webhook retries", project="hot")),
        ("search_notes rare words", lambda: store.search_notes(principal, "kubernetes sidecar", project="hot", semantic=False)),
        ("get_changes_since page 50", lambda: store.get_changes_since(principal, "hot", limit=50)),
        ("get_notes 20", lambda: store.get_notes(principal, some_ids)),
    ]  # fmt: skip
    total = Note.objects.filter(project=project).count()
    embedded = Note.objects.filter(project=project, embedding__isnull=False).count()
    print(f"hot project: {total} notes, {embedded} with vectors")
    for label, work in paths:
        if args.only in label:
            explain(label, work, args.full)


if __name__ == "__main__":
    main()
