"""Score every search mode on a labelled retrieval set: recall@1, recall@5, MRR and recall@5 per query kind.

Usage: .venv/bin/python tools/bench/retrieval_sets.py [harbor|transcripts|agent_notes ...] (all by default)
Loads each set (labelled/retrieval/catalogue.py) into a fresh scratch project of the bench database and
prints one row per mode (labelled/retrieval/harness.py), then get_context's recall at 500 / 1,000 /
2,000 tokens. These are the README's retrieval tables.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "knownbase.settings")
os.environ.setdefault("KNOWNBASE_DB_NAME", "knownbase_bench")

import django

django.setup()

from django.core.management import call_command


def main(names: list[str]) -> None:
    call_command("migrate", verbosity=0)
    from accounts import actions
    from accounts.models import Team, User
    from billing import actions as billing_actions
    from billing.models import Plan
    from labelled.retrieval import harness
    from labelled.retrieval.catalogue import LABELLED_SETS
    from memory.models import Project

    for name in names or list(LABELLED_SETS):
        labelled = LABELLED_SETS[name]
        slug = f"sets-{name.replace('_', '-')}"
        Team.objects.filter(slug=slug).delete()
        User.objects.filter(email=f"{slug}@example.test").delete()
        user = actions.create_user(f"{slug}@example.test")
        team = actions.create_team(user, slug, slug)
        billing_actions.change_plan(team, Plan.objects.get(code="team"))
        project = Project.objects.create(team=team, slug=slug, name=name)
        principal = actions.owner_principal(team, user)
        ids = harness.load(principal, project, labelled.notes)
        scores = [
            harness.evaluate(mode, rank, ids, labelled.queries)
            for mode, rank in harness.rankers(principal, project).items()
        ]
        kinds = tuple(dict.fromkeys(q["kind"] for q in labelled.queries))
        print(f"\n{name} ({labelled.kind}): {len(labelled.notes)} notes, {len(labelled.queries)} queries")
        print(harness.kind_table(scores, kinds))
        print(
            harness.context_table(harness.context_recall(principal, project, ids, queries=labelled.queries))
        )
        Team.objects.filter(slug=slug).delete()
        User.objects.filter(email=f"{slug}@example.test").delete()


if __name__ == "__main__":
    main(sys.argv[1:])
