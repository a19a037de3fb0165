"""Choose the semantic relevance floor of the configured embedding model over every labelled set.

Usage: .venv/bin/python tools/bench/floor_study.py [--sets harbor,transcripts,agent_notes]
Loads each set (labelled/retrieval/catalogue.py) into a scratch project of the bench database and
retrieves the keyword and vector candidates of its answerable queries and of its no-answer queries
(labelled/retrieval/no_answer.py) once. For each candidate floor it then ranks them as search_notes does
(fusion, memory/recall/retrieval.above_floor, retrieval.ranked) and prints per set: recall@1, recall@5
and MRR of the answerable queries, and for the no-answer queries how many return nothing at all and
how many return no semantic-only hit (keyword hits are kept by design). The floor to ship is the
highest one under which no set's recall@1, recall@5 or MRR drops; it goes into RELEVANCE_FLOORS
(memory/recall/semantic.py) under the model id printed first.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "knownbase.settings")
os.environ.setdefault("KNOWNBASE_DB_NAME", "knownbase_bench")

import django

django.setup()

from django.core.management import call_command

TOP = 10
# Every 0.05, and every 0.01 where the answerable and the no-answer cosines meet (0.20-0.35).
FLOORS = tuple(
    sorted({round(0.05 * step, 2) for step in range(13)} | {round(0.01 * s, 2) for s in range(20, 36)})
)
SLUG = "floor-study"


class Candidates:
    """Each query's keyword and vector hits, retrieved once."""

    def __init__(self, scope: Any, texts: list[str]) -> None:
        from memory.recall import retrieval, search

        self.keyword: dict[str, list[search.Hit]] = {}
        self.vector: dict[str, list[search.Hit]] = {}
        for text in texts:
            self.keyword[text] = search.keyword_search(scope, text, retrieval.POOL)[0]
            found = retrieval.semantic_hits(scope, text, retrieval.POOL)
            assert found is not None, "the embedding model must be available for the study"
            self.vector[text] = found[0]

    def hits(self, text: str, floor: float) -> list[Any]:
        from memory.recall import retrieval

        keyword, vector = self.keyword[text], self.vector[text]
        fused = retrieval.above_floor(retrieval.fuse(text, keyword, vector), keyword, vector, floor)
        return fused[: retrieval.POOL]

    def top_cosine(self, text: str) -> float:
        return max((hit.relevance for hit in self.vector[text]), default=0.0)


def study_set(principal: Any, name: str) -> list[dict[str, Any]]:
    from labelled.retrieval import harness
    from labelled.retrieval.catalogue import LABELLED_SETS
    from labelled.retrieval.no_answer import NO_ANSWER
    from memory.models import Note, Project
    from memory.recall import retrieval

    labelled = LABELLED_SETS[name]
    project = Project.objects.create(
        team_id=principal.team_id, slug=f"{SLUG}-{name.replace('_', '-')}", name=name
    )
    ids = harness.load(principal, project, labelled.notes)
    scope = Note.objects.visible_to(principal).live().filter(project=project).select_related("project")
    answerable = [q["query"] for q in labelled.queries]
    unanswerable = NO_ANSWER[name]
    found = Candidates(scope, answerable + [q["query"] for q in unanswerable])

    by_id = {public_id: key for key, public_id in ids.items()}
    best_relevant = []
    for query in labelled.queries:
        relevant = set(query["relevant"])
        cosines = [
            hit.relevance for hit in found.vector[query["query"]] if by_id[hit.note.public_id] in relevant
        ]
        best_relevant.append(max(cosines, default=0.0))
    no_answer_top = {q["query"]: found.top_cosine(q["query"]) for q in unanswerable}
    print(
        f"\n{name}: {len(labelled.notes)} notes, {len(answerable)} answerable, {len(unanswerable)} no-answer"
    )
    answered = sorted(c for c in best_relevant if c > 0)
    print(
        f"  cosine of the best relevant note (answerable, found by the vector leg): min {answered[0]:.3f}, "
        f"5th percentile {answered[len(answered) // 20]:.3f}, median {statistics.median(answered):.3f}"
    )
    for kind in ("nonsense", "off_topic", "near_topic"):
        tops = [no_answer_top[q["query"]] for q in unanswerable if q["kind"] == kind]
        print(f"  top cosine, no-answer {kind:10}: median {statistics.median(tops):.3f}, max {max(tops):.3f}")

    rows = []
    for floor in FLOORS:

        def rank(text: str, floor: float = floor) -> list[str]:
            return [note.public_id for _, note in retrieval.ranked(found.hits(text, floor), TOP)]

        score = harness.evaluate(f"floor {floor}", rank, ids, labelled.queries)
        keyword_ids = {q["query"]: {hit.note.pk for hit in found.keyword[q["query"]]} for q in unanswerable}
        results = {q["query"]: found.hits(q["query"], floor) for q in unanswerable}
        empty = dict.fromkeys(("nonsense", "off_topic", "near_topic"), 0)
        semantic_free = dict(empty)
        for q in unanswerable:
            hits = results[q["query"]]
            empty[q["kind"]] += not hits
            semantic_free[q["kind"]] += all(hit.note.pk in keyword_ids[q["query"]] for hit in hits)
        rows.append({"floor": floor, "score": score, "empty": empty, "semantic_free": semantic_free})
    return rows


def print_rows(name: str, rows: list[dict[str, Any]], kinds: dict[str, int]) -> None:
    print(f"\n{name}")
    print(f"{'floor':>6} {'R@1':>6} {'R@5':>6} {'MRR':>6}   empty (nonsense/off/near)   no semantic-only hit")
    for row in rows:
        s, empty, free = row["score"], row["empty"], row["semantic_free"]
        counts = "/".join(f"{empty[k]}" for k in kinds)
        frees = "/".join(f"{free[k]}" for k in kinds)
        print(
            f"{row['floor']:6.2f} {s.recall_at_1:6.3f} {s.recall_at_5:6.3f} {s.mrr:6.3f}   {counts:>14} of {'/'.join(str(n) for n in kinds.values()):8}   {frees}"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", default="harbor,transcripts,agent_notes")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)

    from accounts import actions
    from accounts.models import Team, User
    from billing import actions as billing_actions
    from billing.models import Plan
    from labelled.retrieval.no_answer import NO_ANSWER
    from memory.embeddings import get_provider
    from memory.recall import semantic

    provider = get_provider()
    assert provider is not None, "no embedding provider is configured"
    print(f"model {provider.model_id}; shipped floor {semantic.relevance_floor(provider.model_id)}")
    Team.objects.filter(slug=SLUG).delete()
    User.objects.filter(email=f"{SLUG}@example.test").delete()
    user = actions.create_user(f"{SLUG}@example.test")
    team = actions.create_team(user, "Floor study", SLUG)
    billing_actions.change_plan(team, Plan.objects.get(code="team"))
    principal = actions.owner_principal(team, user)
    names = args.sets.split(",")
    try:
        results = {name: study_set(principal, name) for name in names}
    finally:
        Team.objects.filter(slug=SLUG).delete()
        User.objects.filter(email=f"{SLUG}@example.test").delete()

    for name in names:
        kinds = {
            kind: sum(q["kind"] == kind for q in NO_ANSWER[name])
            for kind in ("nonsense", "off_topic", "near_topic")
        }
        print_rows(name, results[name], kinds)
    baseline = {name: results[name][0]["score"] for name in names}
    safe = 0.0
    for index, row in enumerate(results[names[0]]):
        if not all(
            results[n][index]["score"].recall_at_1 >= baseline[n].recall_at_1
            and results[n][index]["score"].recall_at_5 >= baseline[n].recall_at_5
            and results[n][index]["score"].mrr >= baseline[n].mrr
            for n in names
        ):
            break
        safe = row["floor"]
    print(f"\nHighest floor with no drop in recall@1, recall@5 or MRR on any set (nor below it): {safe}")


if __name__ == "__main__":
    main()
