"""Choose the keyword/vector fusion by leave-one-set-out evaluation over every labelled set.

Usage: .venv/bin/python tools/bench/fusion_study.py [--sets harbor,transcripts,agent_notes]
Loads each set (labelled/retrieval) into a scratch project of the bench database, retrieves each
query's keyword and vector candidates once, then ranks them through every candidate fusion in
memory/fusion.py and the same final scoring search_notes applies (memory/retrieval.ranked).
Prints recall@1 / recall@5 / MRR per set for keyword, vector and each fusion, then for each held-out
set the fusion the other sets would choose and how it does on the held-out one.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "knownbase.settings")
os.environ.setdefault("KNOWNBASE_DB_NAME", "knownbase_bench")

import django

django.setup()

from django.core.management import call_command

TOP = 10


def objective(score: Any) -> float:
    """What a fold chooses by: the mean of recall@5 and MRR."""
    return float(score.recall_at_5 + score.mrr) / 2


def study_set(principal: Any, labelled: Any, fusions: dict[str, Any]) -> dict[str, Any]:
    """Recall and MRR of keyword, vector and every fusion on one labelled set."""
    from labelled.retrieval import harness
    from memory.models import Note, Project
    from memory.recall import retrieval, search

    project = Project.objects.create(
        team_id=principal.team_id, slug=labelled.name.replace("_", "-"), name=labelled.name
    )
    ids = harness.load(principal, project, labelled.notes)
    scope = Note.objects.visible_to(principal).live().filter(project=project).select_related("project")
    keyword: dict[str, list[search.Hit]] = {}
    vector: dict[str, list[search.Hit]] = {}
    plain: dict[str, list[search.Hit]] = {}
    for q in labelled.queries:
        text = q["query"]
        keyword[text] = search.fulltext(scope, text, retrieval.POOL)
        plain[text] = search.keyword_search(scope, text, retrieval.POOL)[0]
        found = retrieval.semantic_hits(scope, text, retrieval.POOL)
        assert found is not None, "the embedding model must be available for the study"
        vector[text] = found[0]

    def ranking(mode: str, pick: Callable[[str], list[search.Hit]]) -> harness.Score:
        def rank(text: str) -> list[str]:
            return [note.public_id for _, note in retrieval.ranked(pick(text), TOP)]

        return harness.evaluate(mode, rank, ids, labelled.queries)

    per_mode = {
        "keyword": ranking("keyword", plain.__getitem__),
        "vector": ranking("vector", vector.__getitem__),
    }
    for name, how in fusions.items():

        def fused(text: str, how: Any = how) -> list[search.Hit]:
            return list(how.fuse(text, keyword[text], vector[text])[: retrieval.POOL])

        per_mode[name] = ranking(name, fused)
    return per_mode


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", default="harbor,transcripts,agent_notes")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)

    from accounts import actions
    from accounts.models import Team, User
    from billing import actions as billing_actions
    from billing.models import Plan
    from labelled.retrieval.catalogue import LABELLED_SETS
    from memory.recall.fusion import CANDIDATES, CHOSEN, Fusion

    Team.objects.filter(slug="fusion-study").delete()
    User.objects.filter(email="fusion-study@example.test").delete()
    user = actions.create_user("fusion-study@example.test")
    team = actions.create_team(user, "Fusion study", "fusion-study")
    billing_actions.change_plan(team, Plan.objects.get(code="team"))
    principal = actions.owner_principal(team, user)

    fusions: dict[str, Fusion] = {f.name: f for f in (*CANDIDATES, CHOSEN)}
    results = {name: study_set(principal, LABELLED_SETS[name], fusions) for name in args.sets.split(",")}

    names = list(results)
    print(f"{'mode':32}" + "".join(f"{n[:18]:>26}" for n in names))
    print(f"{'':32}" + "".join(f"{'r@1   r@5   MRR':>26}" for _ in names))
    for mode in ["keyword", "vector", *fusions]:
        cells = "".join(
            f"{results[n][mode].recall_at_1:>14.3f}{results[n][mode].recall_at_5:6.3f}{results[n][mode].mrr:6.3f}"
            for n in names
        )
        print(f"{mode:32}{cells}")

    print("\nLeave one set out (choose on the others by mean of recall@5 and MRR, score on the held-out):")
    for held in names:
        others = [n for n in names if n != held]
        if not others:
            break
        best = max(fusions, key=lambda f: sum(objective(results[n][f]) for n in others) / len(others))
        got, base = results[held][best], results[held]["keyword"]
        print(
            f"  held out {held:14} chosen {best:28} r@5 {got.recall_at_5:.3f} MRR {got.mrr:.3f}"
            f"  (keyword r@5 {base.recall_at_5:.3f} MRR {base.mrr:.3f})"
        )
    never_worse = [
        f
        for f in fusions
        if all(
            results[n][f].recall_at_5 >= results[n]["keyword"].recall_at_5
            and results[n][f].mrr >= results[n]["keyword"].mrr
            for n in names
        )
    ]
    ranked_overall = sorted(
        fusions, key=lambda f: min(objective(results[n][f]) - objective(results[n]["keyword"]) for n in names)
    )
    print("\nNever below keyword on any set:", ", ".join(never_worse) or "none")
    print("Best worst-set margin over keyword:", ranked_overall[-1])
    Team.objects.filter(slug="fusion-study").delete()


if __name__ == "__main__":
    main()
