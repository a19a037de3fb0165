"""Load a labelled set (Harbor by default) into a project and measure recall@1, recall@5 and MRR of each
search mode; score_set() does it for any set's NOTES and QUERIES."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from django.db import connection

from accounts.principal import Principal
from labelled.retrieval.dataset import NOTES, QUERIES
from labelled.retrieval.schema import LabelledNote, LabelledQuery
from memory import store
from memory.models import Note, NoteStatus, Project
from memory.notes.lifecycle import content_hash
from memory.recall import retrieval, search, semantic
from memory.recall.tokens import estimate_json_tokens
from memory.tasks import embed_notes

TOP = 5


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


@dataclass(frozen=True)
class Score:
    mode: str
    recall_at_1: float
    recall_at_5: float
    mrr: float
    superseded_ok: float  # superseded queries where every current answer outranks the old note
    by_kind: dict[str, float]


def load(principal: Principal, project: Project, notes: list[LabelledNote] = NOTES) -> dict[str, str]:
    """Create the notes (embedded with the configured provider); return key → public id."""
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
    firsts: list[float] = []
    recalls: list[float] = []
    reciprocal: list[float] = []
    kinds: dict[str, list[float]] = {}
    superseded_ok: list[float] = []
    for query in queries:
        ranked = rank(query["query"])
        relevant = {ids[key] for key in query["relevant"]}
        hit = 1.0 if relevant & set(ranked[:TOP]) else 0.0
        recalls.append(hit)
        firsts.append(1.0 if ranked[:1] and ranked[0] in relevant else 0.0)
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
    return Score(
        mode=mode,
        recall_at_1=mean(firsts),
        recall_at_5=mean(recalls),
        mrr=mean(reciprocal),
        superseded_ok=mean(superseded_ok),
        by_kind={kind: mean(values) for kind, values in kinds.items()},
    )


def as_labelled(notes: Sequence[Mapping[str, Any]]) -> list[LabelledNote]:
    """A set's notes with only the keys the harness loads (a set may carry more, e.g. their origin)."""
    return [cast(LabelledNote, {key: note[key] for key in LabelledNote.__annotations__}) for note in notes]


def score_set(
    principal: Principal,
    project: Project,
    notes: Sequence[Mapping[str, Any]],
    queries: Sequence[Mapping[str, Any]],
) -> list[Score]:
    """Load any labelled set into an empty project and score every mode on its queries."""
    ids = load(principal, project, as_labelled(notes))
    labelled = [cast(LabelledQuery, query) for query in queries]
    return [evaluate(mode, rank, ids, labelled) for mode, rank in rankers(principal, project).items()]


def kind_table(scores: list[Score], kinds: tuple[str, ...]) -> str:
    """recall@1, recall@5 and MRR per mode, then recall@5 of each query kind (any set's kinds)."""
    head = f"{'mode':24} {'R@1':>6} {'R@5':>6} {'MRR':>6} " + " ".join(f"{kind[:10]:>10}" for kind in kinds)
    lines = [head + f" {'old<new':>8}"]
    for s in scores:
        per_kind = " ".join(f"{s.by_kind.get(kind, 0):10.3f}" for kind in kinds)
        lines.append(
            f"{s.mode:24} {s.recall_at_1:6.3f} {s.recall_at_5:6.3f} {s.mrr:6.3f} {per_kind} {s.superseded_ok:8.3f}"
        )
    return "\n".join(lines)


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


# ------------------------------------------------------------------------------------ context recall

CONTEXT_BUDGETS = (500, 1_000, 2_000)


@dataclass(frozen=True)
class ContextRecall:
    """How often get_context at one budget carries every note that answers the query."""

    budget: int
    recall: float  # queries whose every relevant note is in some section
    recall_any: float  # queries with at least one relevant note in some section (as recall@k counts)
    tokens: float  # mean estimated_tokens of a response
    entries: float  # mean entries per response
    tokens_per_entry: float  # mean JSON tokens of one entry (its own text, comma included)
    spend: dict[str, float]  # mean tokens per part: project, each section, meta
    omitted_misses: int  # misses where a missing note is listed in meta.omitted (packed out)
    absent_misses: int  # misses where it is not listed: not a candidate, or the omitted list was full


def context_recall(
    principal: Principal,
    project: Project,
    ids: dict[str, str],
    budgets: tuple[int, ...] = CONTEXT_BUDGETS,
    queries: list[LabelledQuery] = QUERIES,
) -> list[ContextRecall]:
    """For each budget, call get_context(project, query=q, max_tokens=budget) for every query and count
    a hit when every relevant note's id appears in any section (and, for `recall_any`, when one does)."""
    results = []
    for budget in budgets:
        hits: list[float] = []
        any_hits: list[float] = []
        tokens: list[int] = []
        entry_counts: list[int] = []
        entry_tokens: list[int] = []
        spend: dict[str, list[int]] = {}
        omitted_misses = absent_misses = 0
        for query in queries:
            response = store.get_context(principal, project.slug, query=query["query"], max_tokens=budget)
            # Every section holds entries: the TypedDict names them, iteration only needs that.
            sections = cast(Mapping[str, list[store.results.ContextEntry]], response["sections"])
            entries = [entry for section in sections.values() for entry in section]
            shown = {entry["id"] for entry in entries}
            relevant = {ids[key] for key in query["relevant"]}
            hit = relevant <= shown
            hits.append(1.0 if hit else 0.0)
            any_hits.append(1.0 if relevant & shown else 0.0)
            if not hit:
                omitted = {o["id"] for o in response["meta"]["omitted"]}
                if (relevant - shown) & omitted:
                    omitted_misses += 1
                else:
                    absent_misses += 1
            tokens.append(response["meta"]["estimated_tokens"])
            entry_counts.append(len(entries))
            entry_tokens.extend(estimate_json_tokens(entry) for entry in entries)
            parts = {"project": response["project"], "meta": response["meta"], **response["sections"]}
            for part, value in parts.items():
                spend.setdefault(part, []).append(estimate_json_tokens(value))
        results.append(
            ContextRecall(
                budget=budget,
                recall=mean(hits),
                recall_any=mean(any_hits),
                tokens=mean(tokens),
                entries=mean(entry_counts),
                tokens_per_entry=mean(entry_tokens) + 1,
                spend={part: sum(values) / len(queries) for part, values in spend.items()},
                omitted_misses=omitted_misses,
                absent_misses=absent_misses,
            )
        )
    return results


def context_table(rows: list[ContextRecall]) -> str:
    lines = [
        f"{'budget':>6} {'recall':>6} {'any':>6} {'tokens':>7} {'entries':>7} {'tok/entry':>9} {'omitted':>7} {'absent':>6}"
    ]
    for row in rows:
        lines.append(
            f"{row.budget:6d} {row.recall:6.3f} {row.recall_any:6.3f} {row.tokens:7.0f} {row.entries:7.1f} {row.tokens_per_entry:9.1f} "
            f"{row.omitted_misses:7d} {row.absent_misses:6d}"
        )
        spend = ", ".join(f"{part} {value:.0f}" for part, value in row.spend.items() if value >= 0.5)
        lines.append(f"{'':6} spend: {spend}")
    return "\n".join(lines)
