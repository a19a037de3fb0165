"""Bringing memory in, per format, on the labelled uploads (labelled/imports): notes created, types
right, repeats caught, wrong merges. Each upload is a dry run of import_memory into an empty project.

    PYTHONPATH=. python -m tools.bench.import_formats
"""

from __future__ import annotations

import os
from collections import defaultdict


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "knownbase.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import transaction

    from accounts import actions
    from labelled.imports import harness
    from memory import store
    from memory.models import Project
    from memory.transfer.formats import registry

    call_command("migrate", verbosity=0)
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    with transaction.atomic():  # rolled back: the bench leaves nothing behind
        slug = "bench-import-formats"
        user = actions.create_user(f"{slug}@example.test")
        team = actions.create_team(user, slug, slug)
        Project.objects.create(team=team, slug=slug, name="import formats")
        principal = actions.owner_principal(team, user)
        for case in harness.CASES:
            report = store.import_memory(principal, slug, case.files, dry_run=True)
            texts = [c.content for c in registry.READERS[report["format"]].read(case.files).candidates]
            score = harness.score(case, report, texts)
            row = totals[case.format]
            for index, value in enumerate(
                (score.created, score.expected, score.types_right, score.duplicates_caught,
                 score.duplicates_expected, score.wrong_merges)
            ):  # fmt: skip
                row[index] += value
        transaction.set_rollback(True)
    print("| format | notes created | expected | types right | repeats caught | wrong merges |")
    print("|---|---|---|---|---|---|")
    for fmt, (created, expected, right, caught, repeats, wrong) in sorted(totals.items()):
        print(f"| {fmt} | {created} | {expected} | {right}/{expected} | {caught}/{repeats} | {wrong} |")


if __name__ == "__main__":
    main()
