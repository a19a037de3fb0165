"""Server time of the dashboard and project pages on a hot project (20,000 notes by default).

Usage: .venv/bin/python tools/bench/bench_pages.py [--notes 20000] [--others 0] [--runs 30]
       .venv/bin/python tools/bench/bench_pages.py --team bench-seed --project hot-20000   (a seed_bench team)
Uses its own database (knownbase_bench) on the embedded server. Each page is requested through
Django's test client (the whole request: middleware, session, store calls, template) and timed;
prints p50 / p95 / max in ms and the number of SQL queries per page. The target is ≤ 150 ms each.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import unquote

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "knownbase.settings")
os.environ.setdefault("KNOWNBASE_DB_NAME", "knownbase_bench")

import django

django.setup()

from django.conf import settings
from django.core.management import call_command
from django.db import connection, reset_queries
from django.test import Client
from django.utils import timezone

from tools.bench.corpus import TAGS, notes

SOURCES = ["claude-code", "cursor", "codex", "web", "windsurf"]
STATUSES = [
    ("current", 0.8),
    ("historical", 0.08),
    ("superseded", 0.07),
    ("disputed", 0.03),
    ("pending", 0.02),
]


def seed(team_slug: str, count: int, owner_email: str) -> tuple[Any, Any, Any]:
    from accounts import actions
    from accounts.models import Team, User
    from billing import actions as billing_actions
    from billing.models import Plan
    from memory.models import Note, Project
    from memory.notes.lifecycle import content_hash

    Team.objects.filter(slug=team_slug).delete()
    User.objects.filter(email=owner_email).delete()
    user = actions.create_user(owner_email)
    team = actions.create_team(user, team_slug.capitalize(), team_slug)
    billing_actions.change_plan(team, Plan.objects.get(code="team"))
    project = Project.objects.create(team=team, slug="hot", name="Hot project")
    rng = random.Random(11)
    names, weights = zip(*STATUSES, strict=True)
    now = timezone.now()
    rows = []
    # Two months of writing: created any time in the last 60 days, some edited since.
    for n in notes(count):
        created = now - timedelta(minutes=rng.randint(0, 60 * 24 * 60))
        edited = created + (now - created) * rng.random() * rng.choice([0, 0, 1])
        rows.append(
            Note(
                team=team,
                project=project,
                author=user,
                content_hash=content_hash(str(n["body"])),
                status=rng.choices(names, weights)[0],
                source=rng.choice(SOURCES),
                created_at=created,
                updated_at=edited,
                **n,
            )
        )
    Note.objects.bulk_create(rows, batch_size=1000)
    return user, team, project


def measure(
    client: Client, method: str, url: str, data: dict[str, Any], runs: int
) -> tuple[list[float], int]:
    samples: list[float] = []
    queries = 0
    for _ in range(runs):
        reset_queries()
        start = time.perf_counter()
        response = client.post(url, data) if method == "POST" else client.get(url, data)
        samples.append((time.perf_counter() - start) * 1000)
        if response.status_code != 200:
            raise SystemExit(f"{method} {url} {data} answered {response.status_code}")
        queries = len(connection.queries)
    if os.environ.get("BENCH_SHOW_QUERIES"):
        for query in connection.queries:
            print(f"    {query['time']} s  {query['sql'][:160]}")
    return samples, queries


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--notes", type=int, default=20_000)
    parser.add_argument("--others", type=int, default=0, help="notes of another team in the same database")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--reuse", action="store_true", help="time the data a previous run seeded")
    parser.add_argument("--only", default="", help="time only the pages whose label contains this")
    parser.add_argument("--team", default="", help="time a team seeded by seed_bench instead of seeding")
    parser.add_argument("--project", default="hot", help="the project's slug (with --team)")
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    from accounts.principal import SESSION_TEAM_KEY
    from memory.models import Note

    if args.team:
        from accounts.models import Team, User
        from memory.models import Project

        user = User.objects.get(email=f"{args.team}-owner@example.test")
        team = Team.objects.get(slug=args.team)
        project = Project.objects.get(team=team, slug=args.project)
    elif args.reuse:
        from accounts.models import Team, User
        from memory.models import Project

        user = User.objects.get(email="bench-pages@example.test")
        team = Team.objects.get(slug="bench-pages")
        project = Project.objects.get(team=team, slug="hot")
    else:
        if args.others:
            seed("bench-pages-others", args.others, "bench-others@example.test")
        user, team, project = seed("bench-pages", args.notes, "bench-pages@example.test")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memory_note")

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    settings.DEBUG = True  # counts the queries (connection.queries); templates are cached either way
    client = Client()
    client.force_login(user)
    session = client.session
    session[SESSION_TEAM_KEY] = team.pk
    session.save()

    first_page = client.get(f"/projects/{project.slug}/").content.decode()
    next_page = unquote(first_page.split('rel="next" href="?cursor=')[1].split('"')[0])
    picked = list(
        Note.objects.filter(project=project, visibility="team", deleted_at__isnull=True)
        .order_by("-updated_at")
        .values_list("public_id", "version")[:50]
    )
    selection = [f"{note_id}:{version}" for note_id, version in picked]
    note_path = f"/projects/{project.slug}/notes/{picked[0][0]}"

    pages: list[tuple[str, str, str, dict[str, object]]] = [
        ("dashboard", "GET", "/", {}),
        ("project page, newest first", "GET", f"/projects/{project.slug}/", {}),
        ("project page, second page (cursor)", "GET", f"/projects/{project.slug}/", {"cursor": next_page}),
        ("project page, type + status", "GET", f"/projects/{project.slug}/", {"type": "decision", "status": "current"}),
        ("project page, tag, by importance", "GET", f"/projects/{project.slug}/", {"tag": TAGS[0], "sort": "-importance"}),
        ("project page, source + updated range", "GET", f"/projects/{project.slug}/", {"source": "cursor", "updated_after": "2000-01-01"}),
        ("project page, htmx fragment", "GET", f"/projects/{project.slug}/", {"type": "fact"}),
        ("project page, search (keyword)", "GET", f"/projects/{project.slug}/", {"q": "idempotency keys double charges"}),
        ("project settings", "GET", f"/projects/{project.slug}/settings/", {}),
        ("context preview, 2,000 tokens + query", "GET", f"/projects/{project.slug}/context/", {"max_tokens": 2000, "query": "retries and idempotency"}),
        ("bulk confirmation, 50 notes", "POST", f"/projects/{project.slug}/bulk/", {"note": selection, "action": "mark_historical"}),
        ("note page", "GET", f"{note_path}/", {}),
        ("note edit form", "GET", f"{note_path}/edit/", {}),
        ("note revisions", "GET", f"{note_path}/revisions/", {}),
        ("conflicts queue", "GET", "/conflicts/", {}),
        ("export page", "GET", f"/projects/{project.slug}/export/", {}),
        ("audit log", "GET", "/team/audit/", {}),
        ("usage", "GET", "/team/usage/", {}),
        ("screening rules", "GET", "/team/screening/", {}),
    ]  # fmt: skip
    size = Note.objects.filter(project=project).count()
    print(
        f"{size:,} notes in project {project.slug}, {Note.objects.count():,} in the database; {args.runs} runs each"
    )
    print("| page | p50 ms | p95 ms | max ms | queries |")
    print("| --- | --- | --- | --- | --- |")
    for label, method, url, data in pages:
        if args.only not in label:
            continue
        headers = {"HTTP_HX_REQUEST": "true"} if "htmx" in label else {}
        client.defaults.update(headers)
        measure(client, method, url, data, 2)  # warm caches
        samples, queries = measure(client, method, url, data, args.runs)
        for name in headers:
            client.defaults.pop(name)
        ordered = sorted(samples)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        print(f"| {label} | {statistics.median(ordered):.1f} | {p95:.1f} | {ordered[-1]:.1f} | {queries} |")


if __name__ == "__main__":
    main()
