"""Run the labelled judgement set the way an agent meets it: for each pair, a fresh project, the old
note written as given (`store.create_note`) and embedded as the worker would, then `store.remember` of
the new text; the answer's status is compared with the label."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from accounts.principal import Principal
from labelled.judgement.dataset import EXPECTED_STATUS, Pair
from memory import store
from memory.models import Note, Project
from memory.tasks import embed_notes
from memory.validation import derive_title

STATUSES = ("duplicate", "updated", "conflict", "created")
MERGING = frozenset({"duplicate", "updated"})


@dataclass(frozen=True)
class Outcome:
    pair: Pair
    status: str

    @property
    def right(self) -> bool:
        return self.status == self.pair.expected

    @property
    def wrong_merge(self) -> bool:
        """A note about another subject overwritten or swallowed: the one error that loses a true fact."""
        return self.status in MERGING and self.pair.relation in {"unrelated", "complementary"}


def run(principal: Principal, pairs: list[Pair], prefix: str) -> list[Outcome]:
    """Store every old note in its own project, embed them all in one batch (as a worker catching up
    would), then remember each new text in its pair's project."""
    projects = []
    stored = []
    for index, pair in enumerate(pairs):
        project = Project.objects.create(
            team_id=principal.team_id, slug=f"{prefix}-{index}", name=f"Judgement {prefix} {index}"
        )
        note = store.create_note(principal, project.slug, derive_title(pair.old), pair.old, type=pair.type)
        projects.append(project)
        stored.append(note["note"]["id"])
    embed_notes(list(Note.objects.filter(public_id__in=stored).values_list("pk", flat=True)))
    return [
        Outcome(pair, str(store.remember(principal, project.slug, pair.new, type=pair.type)["status"]))
        for pair, project in zip(pairs, projects, strict=True)
    ]


@dataclass(frozen=True)
class StatusScore:
    status: str
    support: int  # pairs labelled with this status
    predicted: int  # pairs judged with this status
    precision: float
    recall: float


def scores(outcomes: list[Outcome]) -> dict[str, StatusScore]:
    result = {}
    for status in STATUSES:
        labelled = [o for o in outcomes if o.pair.expected == status]
        predicted = [o for o in outcomes if o.status == status]
        hits = sum(1 for o in predicted if o.right)
        result[status] = StatusScore(
            status,
            len(labelled),
            len(predicted),
            hits / len(predicted) if predicted else 1.0,
            hits / len(labelled) if labelled else 1.0,
        )
    return result


def accuracy(outcomes: list[Outcome]) -> float:
    return sum(o.right for o in outcomes) / len(outcomes) if outcomes else 1.0


def table(name: str, outcomes: list[Outcome]) -> str:
    lines = [
        f"{name}: {len(outcomes)} pairs, accuracy {accuracy(outcomes):.3f}, "
        f"wrong merges {sum(o.wrong_merge for o in outcomes)}",
        "| status | labelled | judged | precision | recall |",
        "| --- | --- | --- | --- | --- |",
    ]
    for score in scores(outcomes).values():
        lines.append(
            f"| {score.status} | {score.support} | {score.predicted} | {score.precision:.3f} | {score.recall:.3f} |"
        )
    confusion = Counter((o.pair.relation, o.status) for o in outcomes)
    lines.append("| relation → judged | " + " | ".join(STATUSES) + " |")
    lines.append("| --- |" + " --- |" * len(STATUSES))
    for relation in EXPECTED_STATUS:
        counts = " | ".join(str(confusion[(relation, status)]) for status in STATUSES)
        lines.append(f"| {relation} | {counts} |")
    return "\n".join(lines)


def misses(outcomes: list[Outcome]) -> str:
    return "\n".join(
        f"[{o.pair.relation} → {o.status}] {o.pair.old!r} ⇒ {o.pair.new!r}" for o in outcomes if not o.right
    )
