"""The labelled sets beyond Harbor: each validates, and each is frozen by the SHA-256 of its file.

The sets were written and frozen before any ranking was tuned on them. A set must never be edited to
fit a ranking: a change to its file fails this test on purpose. If a set has a real mistake (a wrong
key, a query whose answer is not where it says), fix it in its own commit that says so, with the new
digest, never in the same change as a retrieval change.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import labelled.retrieval
from labelled.retrieval import dataset, harness, transcripts

SETS = Path(labelled.retrieval.__file__).resolve().parent

FROZEN = {
    "transcripts.py": "ef20dab7a4d5b1574fbec148dbb69e5b0156879125cdf07530d3e61d41027b5e",
}


def test_transcripts_set_is_valid():
    counts = transcripts.validate()
    assert sum(counts.values()) == len(transcripts.QUERIES) >= 150
    assert set(counts) == set(transcripts.KINDS)


def test_sets_are_frozen():
    for name, digest in FROZEN.items():
        assert hashlib.sha256((SETS / name).read_bytes()).hexdigest() == digest, (
            f"{name} changed after it was frozen; see this module's docstring"
        )


def test_changed_answers_come_from_a_later_session_of_the_same_conversation():
    by_key = {n["key"]: n for n in transcripts.NOTES}
    changed = [q for q in transcripts.QUERIES if q["kind"] == "changed"]
    for q in changed:
        (new,) = q["relevant"]
        conversation = new.rsplit("-s", 1)[0]
        assert all(old.rsplit("-s", 1)[0] == conversation for old in q["outranked"]), q["query"]
        assert by_key[new]["title"].startswith(conversation)


def test_evaluate_reports_recall_at_1_apart_from_recall_at_5():
    queries = [
        {"query": "first", "kind": "entity", "relevant": ["a"], "outranked": []},
        {"query": "third", "kind": "entity", "relevant": ["b"], "outranked": []},
        {"query": "missing", "kind": "paraphrase", "relevant": ["c"], "outranked": []},
    ]
    ranked = {"first": ["id-a", "id-x"], "third": ["id-x", "id-y", "id-b"], "missing": ["id-x"]}
    ids = {"a": "id-a", "b": "id-b", "c": "id-c"}
    score = harness.evaluate("fake", lambda text: ranked[text], ids, queries)  # type: ignore[arg-type]
    assert score.recall_at_1 == 1 / 3
    assert score.recall_at_5 == 2 / 3
    assert score.mrr == (1 + 1 / 3 + 0) / 3
    assert score.by_kind == {"entity": 1.0, "paraphrase": 0.0}


def test_harbor_set_is_valid():
    dataset.validate()
