"""Search latency at project scale: hybrid (query embedding included) and keyword search_notes.

Usage: .venv/bin/python tools/bench/bench_search.py [--notes 10000] [--runs 200] [--reuse]
Seeds one project of the bench database (knownbase_bench) with N notes of tools/bench/corpus.py, embeds them
with the configured provider (the local model by default) and builds the HNSW index, then times
server-side store calls and prints p50 / p95 / p99 in ms:
- hybrid search with a query never seen before (the query is embedded inside the timing);
- hybrid search with a repeated query (its vector comes from the in-process LRU);
- keyword search (semantic=false);
- the query embedding alone.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "knownbase.settings")
os.environ.setdefault("KNOWNBASE_DB_NAME", "knownbase_bench")

import django

django.setup()

from django.core.management import call_command
from django.db import connection

from tools.bench.bench_engine import percentiles, timed
from tools.bench.corpus import OBJECTS, REASONS, SUBJECTS, notes

TEAM = "bench-search"
EMBED_BATCH = 256


def fresh_queries(count: int) -> list[str]:
    """Questions in the corpus's vocabulary, each text distinct so none is answered from a cache."""
    rng = random.Random(11)
    shapes = [
        "why does {s} use {o}",
        "what did we decide about {o} for {s}",
        "is {s} still relying on {o} {r}",
        "how is {s} deployed and why",
    ]
    return [
        rng.choice(shapes).format(s=rng.choice(SUBJECTS), o=rng.choice(OBJECTS), r=rng.choice(REASONS))
        + f" (case {i})"
        for i in range(count)
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--reuse", action="store_true", help="time the data a previous run seeded")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)

    from accounts import actions
    from accounts.models import Team, User
    from billing import actions as billing_actions
    from billing.models import Plan
    from memory import store
    from memory.embeddings import get_provider
    from memory.models import Note, Project
    from memory.notes.lifecycle import content_hash
    from memory.recall import semantic
    from memory.tasks import embed_notes

    provider = get_provider()
    assert provider is not None, "bench_search needs an embedding provider"
    if args.reuse:
        team = Team.objects.get(slug=TEAM)
        user = User.objects.get(email=f"{TEAM}@example.test")
        project = Project.objects.get(team=team, slug="hot")
    else:
        Team.objects.filter(slug=TEAM).delete()
        User.objects.filter(email=f"{TEAM}@example.test").delete()
        user = actions.create_user(f"{TEAM}@example.test")
        team = actions.create_team(user, "Bench search", TEAM)
        billing_actions.change_plan(team, Plan.objects.get(code="team"))
        project = Project.objects.create(team=team, slug="hot", name="Hot project")
        rows = Note.objects.bulk_create(
            [
                Note(team=team, project=project, author=user, content_hash=content_hash(str(n["body"])), **n)
                for n in notes(args.notes)
            ],
            batch_size=1000,
        )
        started = time.perf_counter()
        pks = [row.pk for row in rows]
        for at in range(0, len(pks), EMBED_BATCH):
            embed_notes(pks[at : at + EMBED_BATCH])
            print(f"\rembedded {min(at + EMBED_BATCH, len(pks))}/{len(pks)}", end="", flush=True)
        print(f" in {time.perf_counter() - started:.0f} s")
    semantic.ensure_vector_index(provider.model_id, provider.dim)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memory_note")
    principal = actions.owner_principal(team, user, client_name="bench")

    warm = fresh_queries(10)
    unseen = fresh_queries(args.runs + 10)[10:]
    repeated = "what did we decide about idempotency keys for webhook handlers"
    for text in warm:  # loads the model and warms the index pages
        store.search_notes(principal, text, project="hot")
    semantic.recent_vectors.clear()

    rows_out = []
    for name, work in [
        (
            "search_notes hybrid, unseen query",
            lambda i: store.search_notes(principal, unseen[i], project="hot"),
        ),
        (
            "search_notes hybrid, repeated query",
            lambda i: store.search_notes(principal, repeated, project="hot"),
        ),
        (
            "search_notes keyword",
            lambda i: store.search_notes(principal, unseen[i], project="hot", semantic=False),
        ),
        ("query embedding alone", lambda i: provider.embed([unseen[i] + " again"], kind="query")),
    ]:
        p50, p95, p99 = percentiles(timed(args.runs, work))
        rows_out.append((name, p50, p95, p99))

    total = Note.objects.filter(project=project, embedding_model=provider.model_id).count()
    print(f"\nproject notes with vectors: {total}, model {provider.model_id}, runs per row: {args.runs}")
    print(f"{'operation':38} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
    for name, p50, p95, p99 in rows_out:
        print(f"{name:38} {p50:8.1f} {p95:8.1f} {p99:8.1f}")


if __name__ == "__main__":
    main()
