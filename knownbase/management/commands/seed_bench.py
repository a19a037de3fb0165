"""Seed a realistic benchmark data set quickly: one team, several users and projects, hot projects.

Rows are bulk-inserted in batches, bypassing the store on purpose (a bench fixture, never product
data): the database still fills what it owns — `search_document` is a generated column and
`change_seq` comes from the note trigger — so the notes are searchable and in the change feed as if
written one by one. Embeddings are computed in batches for the hot projects only by default
(`--embed hot`): the local model embeds ~70–400 texts/s on two cores, so 100,000 vectors would take
longer than the rest of the seed together.
"""

from __future__ import annotations

import itertools
import random
import sys
import time
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction
from django.utils import timezone

from accounts import actions
from accounts.models import Role, Team, User
from billing import actions as billing_actions
from billing.models import Plan
from memory.embeddings import get_provider
from memory.models import LinkKind, Note, NoteLink, NoteStatus, NoteType, Project, Visibility
from memory.notes.lifecycle import content_hash
from memory.recall import semantic
from memory.tasks import embed_notes
from tools.bench.corpus import notes as corpus_notes

BATCH = 2000
EMBED_BATCH = 256
MEMBERS = 3
SOURCES = ["claude-code", "cursor", "codex", "web", "windsurf"]
# tools/bench/corpus.py writes the common types; these complete the set.
RARE_TYPES = [NoteType.HANDOFF, NoteType.PREFERENCE, NoteType.REFERENCE]
RARE_TYPE_SHARE = 0.06
PRIVATE_SHARE = 0.03
DELETED_SHARE = 0.01
HISTORICAL_SHARE = 0.05
PENDING_SHARE = 0.01
CHAINED_SHARE = 0.06  # notes inside supersession chains of 2 to 4 versions
DISPUTED_SHARE = 0.02  # notes inside disputed pairs, linked by `contradicts`
RELATES_SHARE = 0.10
DEPENDS_SHARE = 0.03


def progress(label: str, done: int, total: int, started: float) -> None:
    width = 30
    filled = width * done // max(total, 1)
    rate = done / max(time.perf_counter() - started, 1e-6)
    sys.stderr.write(
        f"\r{label:10} [{'#' * filled}{'.' * (width - filled)}] {done:,}/{total:,} ({rate:,.0f}/s)"
    )
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()


@dataclass
class Layout:
    """How many notes each project gets: the hot ones first, the rest spread over the others."""

    sizes: dict[str, int] = field(default_factory=dict)
    hot: list[str] = field(default_factory=list)


def plan_projects(total: int, projects: int, hot_notes: list[int], hot_share: float) -> Layout:
    hot_sizes = hot_notes or [round(total * hot_share)]
    if sum(hot_sizes) > total:
        raise CommandError(f"the hot projects ({sum(hot_sizes):,} notes) exceed --notes {total:,}")
    if any(size < 1 for size in hot_sizes):
        raise CommandError("every hot project needs at least one note")
    others = projects - len(hot_sizes)
    rest = total - sum(hot_sizes)
    if rest and others < 1:
        raise CommandError(f"--projects {projects} leaves no project for the other {rest:,} notes")
    plan = Layout()
    for size in hot_sizes:
        slug = f"hot-{size}"
        if slug in plan.sizes:
            raise CommandError(f"two hot projects of {size} notes: give distinct sizes")
        plan.sizes[slug] = size
        plan.hot.append(slug)
    for index in range(max(others, 0)):
        plan.sizes[f"project-{index + 1:02d}"] = rest // others + (1 if index < rest % others else 0)
    return plan


def user_email(team: str, role: str) -> str:
    return f"{team}-{role}@example.test"


class Command(BaseCommand):
    help = (
        "Seed a benchmark team: N notes of every type over several projects and users, one hot project "
        "(or several, --hot-notes), tags, links, supersession chains, disputed and private notes."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--notes", type=int, required=True, help="notes in the team, all projects")
        parser.add_argument("--projects", type=int, default=5, help="projects, hot ones included")
        parser.add_argument(
            "--hot-share", type=float, default=0.2, help="share of the notes in the one hot project"
        )
        parser.add_argument(
            "--hot-notes",
            type=int,
            action="append",
            default=[],
            help="a hot project of exactly this many notes (repeatable; overrides --hot-share)",
        )
        parser.add_argument(
            "--embed",
            choices=["none", "hot", "all"],
            default="hot",
            help="which notes get vectors now (default: the hot projects')",
        )
        parser.add_argument("--team", default="bench-seed", help="team slug")
        parser.add_argument("--seed", type=int, default=7, help="random seed (same seed, same data)")
        parser.add_argument("--reset", action="store_true", help="delete the team's data and seed again")

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.PRODUCTION:
            raise CommandError("seed_bench writes thousands of fake notes; it refuses to run in production.")
        total: int = options["notes"]
        if total < 1:
            raise CommandError("--notes must be at least 1")
        if not 0 < options["hot_share"] <= 1:
            raise CommandError("--hot-share must be in (0, 1]")
        layout = plan_projects(total, options["projects"], options["hot_notes"], options["hot_share"])
        slug: str = options["team"]
        existing = Team.objects.filter(slug=slug).first()
        if existing is not None:
            if not options["reset"]:
                count = Note.objects.filter(team=existing).count()
                self.stdout.write(f"team {slug} is already seeded ({count:,} notes); --reset to seed again")
                return
            self._delete(existing)
        User.objects.filter(email__startswith=f"{slug}-", email__endswith="@example.test").delete()

        started = time.perf_counter()
        rng = random.Random(options["seed"])  # noqa: S311 - reproducible fake data, no secrets
        with transaction.atomic():
            team, authors = self._team(slug)
            written = 0
            for project_slug, size in layout.sizes.items():
                project = Project.objects.create(
                    team=team, slug=project_slug, name=project_slug.replace("-", " ").capitalize()
                )
                written = self._seed_project(team, project, authors, size, rng, written, total, started)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE memory_note")
            cursor.execute("ANALYZE memory_notelink")
        seeded = time.perf_counter() - started
        embedded = self._embed(team, layout.hot if options["embed"] == "hot" else None, options["embed"])
        self.stdout.write(
            f"team {slug}: {total:,} notes in {len(layout.sizes)} projects "
            f"(hot: {', '.join(f'{s} = {layout.sizes[s]:,}' for s in layout.hot)}), "
            f"seeded in {seeded:.1f} s, {embedded:,} embedded in {time.perf_counter() - started - seeded:.1f} s"
        )

    def _delete(self, team: Team) -> None:
        """Drop the team's notes with a few statements: the ORM's cascade would load every row."""
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                "DELETE FROM memory_notelink WHERE from_note_id IN "
                "(SELECT id FROM memory_note WHERE team_id = %s) "
                "OR to_note_id IN (SELECT id FROM memory_note WHERE team_id = %s)",
                [team.pk, team.pk],
            )
            cursor.execute(
                "DELETE FROM memory_noterevision WHERE note_id IN "
                "(SELECT id FROM memory_note WHERE team_id = %s)",
                [team.pk],
            )
            cursor.execute("DELETE FROM memory_note WHERE team_id = %s", [team.pk])
            team.delete()

    def _team(self, slug: str) -> tuple[Team, list[User]]:
        owner = actions.create_user(user_email(slug, "owner"), name="Bench owner")
        team = actions.create_team(owner, name=f"Bench {slug}", slug=slug)
        billing_actions.change_plan(team, Plan.objects.get(code="team"))
        principal = actions.owner_principal(team, owner, client_name="seed_bench")
        authors = [owner]
        for index in range(MEMBERS):
            member = actions.create_user(user_email(slug, f"member{index + 1}"), name=f"Member {index + 1}")
            actions.add_member(team, member, Role.MEMBER, actor=principal)
            authors.append(member)
        viewer = actions.create_user(user_email(slug, "viewer"), name="Bench viewer")
        actions.add_member(team, viewer, Role.VIEWER, actor=principal)
        return team, authors

    def _seed_project(
        self,
        team: Team,
        project: Project,
        authors: list[User],
        size: int,
        rng: random.Random,
        written: int,
        total: int,
        started: float,
    ) -> int:
        now = timezone.now()
        rows: list[Note] = []
        for values in corpus_notes(size, seed=rng.randrange(1 << 30)):
            created = now - timedelta(minutes=rng.randint(0, 90 * 24 * 60))
            if rng.random() < RARE_TYPE_SHARE:
                values["type"] = rng.choice(RARE_TYPES)
            deleted = rng.random() < DELETED_SHARE
            status = NoteStatus.CURRENT
            roll = rng.random()
            if roll < HISTORICAL_SHARE:
                status = NoteStatus.HISTORICAL
            elif roll < HISTORICAL_SHARE + PENDING_SHARE:
                status = NoteStatus.PENDING
            rows.append(
                Note(
                    team=team,
                    project=project,
                    author=rng.choice(authors),
                    content_hash=content_hash(str(values["body"])),
                    status=status,
                    visibility=Visibility.PRIVATE if rng.random() < PRIVATE_SHARE else Visibility.TEAM,
                    source=rng.choice(SOURCES),
                    created_at=created,
                    updated_at=created + (now - created) * rng.random() * rng.choice([0, 0, 1]),
                    deleted_at=now if deleted else None,
                    **values,
                )
            )
        # Inserted oldest first, so the change feed's sequence follows time as it would in use.
        rows.sort(key=lambda note: note.created_at)
        for at in range(0, len(rows), BATCH):
            Note.objects.bulk_create(rows[at : at + BATCH])
            written += len(rows[at : at + BATCH])
            progress("notes", written, total, started)
        self._relate(rows, rng)
        return written

    def _relate(self, rows: list[Note], rng: random.Random) -> None:
        """Chains, disputed pairs and links among the live team notes of one project."""
        pool = [n for n in rows if n.deleted_at is None and n.visibility == Visibility.TEAM]
        pool = [n for n in pool if n.status == NoteStatus.CURRENT]
        rng.shuffle(pool)
        chained_count = int(len(rows) * CHAINED_SHARE)
        disputed_count = int(len(rows) * DISPUTED_SHARE) // 2 * 2
        chained, pool = pool[:chained_count], pool[chained_count:]
        disputed, pool = pool[:disputed_count], pool[disputed_count:]
        changed: list[Note] = []
        links: list[NoteLink] = []
        at = 0
        while at + 1 < len(chained):
            # Oldest first along the chain: each version superseded by the next, the last current.
            chain = sorted(chained[at : at + rng.randint(2, 4)], key=lambda note: note.created_at)
            at += len(chain)
            for old, new in itertools.pairwise(chain):
                old.status = NoteStatus.SUPERSEDED
                old.superseded_by = new
                changed.append(old)
        for first, second in zip(disputed[::2], disputed[1::2], strict=True):
            first.status = second.status = NoteStatus.DISPUTED
            changed += [first, second]
            links.append(NoteLink(from_note=second, to_note=first, kind=LinkKind.CONTRADICTS))
        Note.objects.bulk_update(changed, ["status", "superseded_by"], batch_size=BATCH)
        linkable = [n for n in rows if n.deleted_at is None]
        seen: set[tuple[int, int, str]] = set()
        for kind, share in [(LinkKind.RELATES_TO, RELATES_SHARE), (LinkKind.DEPENDS_ON, DEPENDS_SHARE)]:
            for _ in range(int(len(rows) * share) if len(linkable) > 1 else 0):
                source, target = rng.sample(linkable, 2)
                key = (source.pk, target.pk, kind)
                if key not in seen:
                    seen.add(key)
                    links.append(NoteLink(from_note=source, to_note=target, kind=kind))
        NoteLink.objects.bulk_create(links, batch_size=BATCH)

    def _embed(self, team: Team, hot: list[str] | None, mode: str) -> int:
        if mode == "none":
            return 0
        provider = get_provider()
        if provider is None:
            self.stderr.write("no embedding provider configured: notes left without vectors")
            return 0
        notes = Note.objects.filter(team=team, deleted_at__isnull=True)
        if hot is not None:
            notes = notes.filter(project__slug__in=hot)
        pks = list(notes.order_by("pk").values_list("pk", flat=True))
        started = time.perf_counter()
        for at in range(0, len(pks), EMBED_BATCH):
            embed_notes(pks[at : at + EMBED_BATCH])
            progress("embedded", min(at + EMBED_BATCH, len(pks)), len(pks), started)
        semantic.ensure_vector_index(provider.model_id, provider.dim)
        return len(pks)
