"""Every labelled retrieval set by name, for the harness, the quality floors and bench/fusion_study.py."""

from __future__ import annotations

from dataclasses import dataclass

from tests.retrieval import dataset
from tests.retrieval.dataset import LabelledNote, LabelledQuery


@dataclass(frozen=True)
class LabelledSet:
    name: str
    kind: str  # what kind of text, for the README table
    notes: list[LabelledNote]
    queries: list[LabelledQuery]


LABELLED_SETS: dict[str, LabelledSet] = {
    "harbor": LabelledSet(
        "harbor", "engineering notes written with their queries", dataset.NOTES, dataset.QUERIES
    ),
}
