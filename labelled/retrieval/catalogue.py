"""Every labelled retrieval set by name, for the quality floors and tools/bench/fusion_study.py."""

from __future__ import annotations

from dataclasses import dataclass

from labelled.retrieval import agent_notes, dataset, harness, transcripts
from labelled.retrieval.schema import LabelledNote, LabelledQuery


@dataclass(frozen=True)
class LabelledSet:
    name: str
    kind: str  # what kind of text, for the docs/search.md table
    notes: list[LabelledNote]
    queries: list[LabelledQuery]


LABELLED_SETS: dict[str, LabelledSet] = {
    "harbor": LabelledSet(
        "harbor", "engineering notes written with their queries", dataset.NOTES, dataset.QUERIES
    ),
    "transcripts": LabelledSet(
        "transcripts",
        "developer–assistant sessions, one message a note",
        transcripts.NOTES,
        transcripts.QUERIES,
    ),
    "agent_notes": LabelledSet(
        "agent_notes",
        "short typed notes from remember and checkpoint",
        harness.as_labelled(agent_notes.NOTES),
        [LabelledQuery(**query) for query in agent_notes.QUERIES],
    ),
}
