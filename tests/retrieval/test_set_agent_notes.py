"""The agent-notes labelled set (labelled/retrieval/agent_notes.py): its invariants hold and it is frozen."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from labelled.retrieval import agent_notes

# Frozen before any tuning (issue 14, point 1b): the set was written and this hash pinned before a
# retriever, fusion weight or model was chosen with it. A set that changes after tuning has started
# measures nothing; write a new set instead of editing this one.
FROZEN_SHA256 = "4528c49109a3f55423c3b722bbeaebfb4d16a1983ecac0fe6e71ececae63e33d"


def test_the_set_is_frozen() -> None:
    digest = hashlib.sha256(Path(agent_notes.__file__).read_bytes()).hexdigest()
    assert digest == FROZEN_SHA256, "labelled/retrieval/agent_notes.py changed after it was frozen"


def test_the_set_is_valid() -> None:
    agent_notes.validate()


def test_the_set_has_what_it_promises() -> None:
    notes, queries = agent_notes.NOTES, agent_notes.QUERIES
    assert 500 <= len(notes) <= 800
    assert len(queries) >= 170
    assert len({n["project"] for n in notes}) == 5
    assert {q["kind"] for q in queries} == set(agent_notes.KINDS)
    # Checkpoints are stored as the tool stores them: a handoff and one typed note per item.
    handoffs = [n for n in notes if n["type"] == "handoff"]
    assert handoffs and all(n["title"].startswith("Handoff: ") and n["tags"] == ["handoff"] for n in handoffs)
    assert any(n["key"].endswith(".f1") and n["type"] == "failed_approach" for n in notes)
    # Superseded queries name the old note, and it is superseded by one of the answers.
    by_key = {n["key"]: n for n in notes}
    for q in queries:
        if q["kind"] == "superseded":
            assert all(by_key[old]["status"] == "superseded" for old in q["outranked"])


def test_validate_catches_a_broken_label(monkeypatch) -> None:
    broken = [*agent_notes.QUERIES]
    broken[0] = {**broken[0], "relevant": ["no-such-note"]}
    monkeypatch.setattr(agent_notes, "QUERIES", broken)
    with pytest.raises(AssertionError):
        agent_notes.validate()
