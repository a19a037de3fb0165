"""Score every search mode on a labelled retrieval set: recall@1, recall@5, MRR and recall@5 per query kind.

Usage: .venv/bin/python bench/retrieval_sets.py [transcripts|harbor]
Loads the set into a fresh scratch project of the bench database and prints one row per mode
(tests/retrieval/harness.py). Nothing is tuned here; the numbers are a baseline.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "knownbase.settings")
os.environ.setdefault("KNOWNBASE_DB_NAME", "knownbase_bench")

import django

django.setup()

from django.core.management import call_command


def main(name: str) -> None:
    call_command("migrate", verbosity=0)
    from accounts import actions
    from accounts.models import Team, User
    from billing import actions as billing_actions
    from billing.models import Plan
    from memory.models import Project
    from tests.retrieval import dataset, harness
    from tests.retrieval.sets import transcripts

    sets = {
        "harbor": (dataset.NOTES, dataset.QUERIES, ("paraphrase", "entity", "superseded")),
        "transcripts": (transcripts.NOTES, transcripts.QUERIES, transcripts.KINDS),
    }
    notes, queries, kinds = sets[name]
    slug = f"sets-{name}"
    Team.objects.filter(slug=slug).delete()
    User.objects.filter(email=f"{slug}@example.test").delete()
    user = actions.create_user(f"{slug}@example.test")
    team = actions.create_team(user, slug, slug)
    billing_actions.change_plan(team, Plan.objects.get(code="team"))
    project = Project.objects.create(team=team, slug=name, name=name)
    principal = actions.owner_principal(team, user)
    scores = harness.score_set(principal, project, notes, queries)
    print(f"{name}: {len(notes)} notes, {len(queries)} queries")
    print(harness.kind_table(scores, kinds))
    Team.objects.filter(slug=slug).delete()
    User.objects.filter(email=f"{slug}@example.test").delete()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "transcripts")
