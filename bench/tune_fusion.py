"""Choose the hybrid fusion weights on the labelled Harbor set (tests/retrieval).

Usage: .venv/bin/python bench/tune_fusion.py
Loads the set into a scratch project of the bench database, then prints recall@5 / MRR of the
fusion for a grid of (semantic weight, keyword weight, RRF k), best first.
"""

from __future__ import annotations

import itertools
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "knownbase.settings")
os.environ.setdefault("KNOWNBASE_DB_NAME", "knownbase_bench")

import django

django.setup()

from django.core.management import call_command


def main() -> None:
    call_command("migrate", verbosity=0)
    from accounts import actions
    from accounts.models import Team, User
    from billing import actions as billing_actions
    from billing.models import Plan
    from memory import retrieval
    from memory.models import Note, Project
    from tests.retrieval import harness
    from tests.retrieval.dataset import QUERIES

    Team.objects.filter(slug="tuning").delete()
    User.objects.filter(email="tuning@example.test").delete()
    user = actions.create_user("tuning@example.test")
    team = actions.create_team(user, "Tuning", "tuning")
    billing_actions.change_plan(team, Plan.objects.get(code="team"))
    project = Project.objects.create(team=team, slug="harbor", name="Harbor")
    principal = actions.owner_principal(team, user)
    ids = harness.load(principal, project)
    scope = Note.objects.visible_to(principal).live().filter(project=project).select_related("project")

    # Retrieve each list once, then fuse offline for every weight setting.
    from memory import search, semantic

    cached: dict[str, tuple[list[search.Hit], list[search.Hit]]] = {}
    for query in QUERIES:
        found = semantic.query_vector(query["query"])
        assert found is not None
        vector_hits, _ = semantic.nearest(scope, found[0], found[1], retrieval.POOL)
        cached[query["query"]] = (search.fulltext(scope, query["query"], retrieval.POOL), vector_hits)

    rows = []
    for w_sem, w_key, k in itertools.product([0.5, 1.0, 1.5, 2.0, 3.0, 4.0], [1.0], [5, 10, 20, 60]):
        retrieval.SEMANTIC_WEIGHT, retrieval.KEYWORD_WEIGHT, retrieval.RRF_K = w_sem, w_key, k

        def rank(text: str) -> list[str]:
            keyword, vector = cached[text]
            return [hit.note.public_id for hit in retrieval.fuse(keyword, vector)[:10]]

        score = harness.evaluate(f"sem={w_sem} key={w_key} k={k}", rank, ids)
        rows.append(score)
    rows.sort(key=lambda s: (s.recall_at_5, s.mrr), reverse=True)
    print(harness.table(rows[:12]))
    Team.objects.filter(slug="tuning").delete()


if __name__ == "__main__":
    main()
