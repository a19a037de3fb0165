"""Load the labelled Harbor set into a project and measure recall@5 / MRR of each search mode."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from django.db import connection

from accounts.principal import Principal
from memory import retrieval, search, semantic, store
from memory.models import Note, NoteStatus, Project
from memory.notes import content_hash
from memory.tasks import embed_notes
from tests.retrieval.dataset import NOTES, QUERIES, LabelledNote, LabelledQuery

TOP = 5


@dataclass(frozen=True)
class Score:
    mode: str
    recall_at_5: float
    mrr: float
    superseded_ok: float  # superseded queries where every current answer outranks the old note
    by_kind: dict[str, float]


def load(principal: Principal, project: Project, notes: list[LabelledNote] = NOTES) -> dict[str, str]:
    """Create a set's notes (embedded with the configured provider); return key → public id."""
    rows = [
        Note(
            team_id=principal.team_id,
            project=project,
            author_id=principal.user_id,
            type=n["type"],
            status=n["status"],
            title=n["title"],
            body=n["body"],
            tags=n["tags"],
            content_hash=content_hash(n["body"]),
        )
        for n in notes
    ]
    Note.objects.bulk_create(rows)
    ids = {n["key"]: row.public_id for n, row in zip(notes, rows, strict=True)}
    by_key = {n["key"]: row for n, row in zip(notes, rows, strict=True)}
    for n in notes:
        for old in n["supersedes"]:
            Note.objects.filter(pk=by_key[old].pk).update(
                status=NoteStatus.SUPERSEDED, superseded_by=by_key[n["key"]]
            )
    embed_notes([row.pk for row in rows])
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memory_note")
    return ids


Ranker = Callable[[str], list[str]]


def rankers(principal: Principal, project: Project) -> dict[str, Ranker]:
    """Each mode as a function from query to ranked public ids."""
    scope = Note.objects.visible_to(principal).live().filter(project=project).select_related("project")

    def via_store(use_semantic: bool) -> Ranker:
        def rank(query: str) -> list[str]:
            result = store.search_notes(
                principal, query, project=project.slug, semantic=use_semantic, limit=10
            )
            return [row["id"] for row in result["results"]]

        return rank

    def pure_semantic(query: str) -> list[str]:
        found = semantic.query_vector(query)
        assert found is not None
        hits, _ = semantic.nearest(scope, found[0], found[1], 10)
        return [hit.note.public_id for hit in hits]

    def pure_scan(query: str) -> list[str]:
        found = semantic.query_vector(query)
        assert found is not None
        return [hit.note.public_id for hit in semantic._nearest_scanned(scope, found[0], found[1], 10)]

    def substring_only(query: str) -> list[str]:
        return [hit.note.public_id for hit in search.substring(scope, query, 10)]

    def fulltext_only(query: str) -> list[str]:
        return [hit.note.public_id for hit in search.fulltext(scope, query, 10)]

    def fused(query: str) -> list[str]:
        hits, _ = retrieval.retrieve(scope, query, 10, use_semantic=True)
        return [hit.note.public_id for hit in hits]

    return {
        "fulltext (raw)": fulltext_only,
        "substring (raw)": substring_only,
        "vector (raw)": pure_semantic,
        "scan (raw)": pure_scan,
        "hybrid fusion (raw)": fused,
        "search_notes keyword": via_store(False),
        "search_notes semantic": via_store(True),
    }


def evaluate(mode: str, rank: Ranker, ids: dict[str, str], queries: list[LabelledQuery] = QUERIES) -> Score:
    recalls: list[float] = []
    reciprocal: list[float] = []
    kinds: dict[str, list[float]] = {}
    superseded_ok: list[float] = []
    for query in queries:
        ranked = rank(query["query"])
        relevant = {ids[key] for key in query["relevant"]}
        hit = 1.0 if relevant & set(ranked[:TOP]) else 0.0
        recalls.append(hit)
        kinds.setdefault(query["kind"], []).append(hit)
        first = next((i for i, note_id in enumerate(ranked, start=1) if note_id in relevant), None)
        reciprocal.append(1.0 / first if first else 0.0)
        if query["outranked"]:
            positions = {note_id: i for i, note_id in enumerate(ranked)}
            worst_relevant = max((positions.get(r, 10**6) for r in relevant), default=10**6)
            old = [positions.get(ids[key], 10**6) for key in query["outranked"]]
            superseded_ok.append(
                1.0 if worst_relevant < 10**6 and all(o > worst_relevant for o in old) else 0.0
            )
    mean = lambda values: sum(values) / len(values) if values else 0.0  # noqa: E731
    return Score(
        mode=mode,
        recall_at_5=mean(recalls),
        mrr=mean(reciprocal),
        superseded_ok=mean(superseded_ok),
        by_kind={kind: mean(values) for kind, values in kinds.items()},
    )


def table(scores: list[Score]) -> str:
    lines = [
        f"{'mode':24} {'recall@5':>8} {'MRR':>6} {'paraphr':>8} {'entity':>7} {'supersd':>8} {'old<new':>8}"
    ]
    for s in scores:
        lines.append(
            f"{s.mode:24} {s.recall_at_5:8.3f} {s.mrr:6.3f} {s.by_kind.get('paraphrase', 0):8.3f} "
            f"{s.by_kind.get('entity', 0):7.3f} {s.by_kind.get('superseded', 0):8.3f} {s.superseded_ok:8.3f}"
        )
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------------------
# Any labelled set (issue 14): recall@1, recall@5 and MRR of every mode. Added beside the Harbor API
# above, which it leaves unchanged; a set's notes carry at least LabelledNote's keys and its queries
# LabelledQuery's keys, with kinds of their own.


@dataclass(frozen=True)
class SetScore:
    mode: str
    recall_at_1: float
    recall_at_5: float
    mrr: float  # over the top 10
    current_first: float  # queries with `outranked`: the best-ranked answer is above every old note
    by_kind: dict[str, float]  # recall@5 per query kind


def score_set(
    principal: Principal,
    project: Project,
    notes: Sequence[Mapping[str, Any]],
    queries: Sequence[Mapping[str, Any]],
) -> list[SetScore]:
    """Load the notes into `project`, then score every mode of `rankers` on the queries."""
    fields = LabelledNote.__annotations__
    ids = load(principal, project, [cast(LabelledNote, {k: n[k] for k in fields}) for n in notes])
    return [score_queries(mode, rank, ids, queries) for mode, rank in rankers(principal, project).items()]


def score_queries(
    mode: str, rank: Ranker, ids: dict[str, str], queries: Sequence[Mapping[str, Any]]
) -> SetScore:
    first_hits: list[float] = []
    hits: list[float] = []
    reciprocal: list[float] = []
    kinds: dict[str, list[float]] = {}
    current_first: list[float] = []
    for query in queries:
        ranked = rank(query["query"])
        relevant = {ids[key] for key in query["relevant"]}
        first = next((i for i, note_id in enumerate(ranked, start=1) if note_id in relevant), None)
        hit = 1.0 if first is not None and first <= TOP else 0.0
        first_hits.append(1.0 if first == 1 else 0.0)
        hits.append(hit)
        reciprocal.append(1.0 / first if first else 0.0)
        kinds.setdefault(query["kind"], []).append(hit)
        if query["outranked"]:
            old = [ranked.index(ids[key]) + 1 for key in query["outranked"] if ids[key] in ranked]
            current_first.append(1.0 if first is not None and all(o > first for o in old) else 0.0)
    mean = lambda values: sum(values) / len(values) if values else 0.0  # noqa: E731
    return SetScore(
        mode=mode,
        recall_at_1=mean(first_hits),
        recall_at_5=mean(hits),
        mrr=mean(reciprocal),
        current_first=mean(current_first),
        by_kind={kind: mean(values) for kind, values in kinds.items()},
    )


def set_table(scores: list[SetScore], kinds: Sequence[str]) -> str:
    """A Markdown table: one row per mode, recall@5 per kind after the overall figures."""
    head = ["mode", "recall@1", "recall@5", "MRR", "current first", *(f"{k} r@5" for k in kinds)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for s in scores:
        cells = [s.mode, *(f"{v:.3f}" for v in (s.recall_at_1, s.recall_at_5, s.mrr, s.current_first))]
        cells += [f"{s.by_kind.get(k, 0.0):.3f}" for k in kinds]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
