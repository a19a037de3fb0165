"""get_context recall@5 for path-bound tasks, with and without `paths` (labelled/retrieval/path_bound.py).

Usage: .venv/bin/python tools/bench/path_recall.py
Loads the agent-notes set into a fresh scratch project of the bench database, binds the set's notes to
their globs, and prints recall@5 of get_context's `relevant` section for every path-bound query, first
with the task alone, then with the files it touches. The figures of docs/code-binding.md.
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


def main() -> None:
    call_command("migrate", verbosity=0)
    from accounts import actions
    from accounts.models import Team, User
    from billing import actions as billing_actions
    from billing.models import Plan
    from labelled.retrieval import harness, path_bound
    from labelled.retrieval.catalogue import LABELLED_SETS
    from memory.models import Project

    path_bound.validate()
    slug = "sets-path-bound"
    Team.objects.filter(slug=slug).delete()
    User.objects.filter(email=f"{slug}@example.test").delete()
    user = actions.create_user(f"{slug}@example.test")
    team = actions.create_team(user, slug, slug)
    billing_actions.change_plan(team, Plan.objects.get(code="team"))
    project = Project.objects.create(team=team, slug=slug, name="path-bound")
    principal = actions.owner_principal(team, user)
    try:
        ids = harness.load(principal, project, LABELLED_SETS["agent_notes"].notes)
        path_bound.bind(ids)
        print(f"{len(path_bound.QUERIES)} path-bound queries, {len(path_bound.BINDINGS)} bound notes")
        for with_paths in (False, True):
            result = path_bound.context_recall(principal, project, ids, with_paths=with_paths)
            print(
                f"{'with paths   ' if with_paths else 'without paths'}: recall@{path_bound.TOP} "
                f"(every bound note) {result['recall_all']:.3f}, notes found {result['recall_notes']:.3f}"
            )
    finally:
        Team.objects.filter(slug=slug).delete()
        User.objects.filter(email=f"{slug}@example.test").delete()


if __name__ == "__main__":
    main()
