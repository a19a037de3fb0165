"""Fusion of keyword and vector candidates: the exact-token detector and both fusion families."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from memory.recall.fusion import Fusion, exact_tokens, exactness
from memory.recall.search import Hit


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("why did we stop retrying failed payments", 0),
        ("what did we decide about the cache", 0),
        ('where does "connection reset by peer" come from', 2),
        ("the bug in services/billing/retry.py", 1),
        ("what is MAX_RETRY_BUDGET", 1),
        ("why is the timeout 30 seconds", 1),
        ("did Priya approve the migration to Postgres", 2),
        ("How does fetchUserProfile cache results", 1),
    ],
)
def test_exact_tokens_are_counted(query: str, expected: int) -> None:
    assert exact_tokens(query) == expected


def test_exactness_saturates_at_two_exact_tokens() -> None:
    assert exactness("plain words only") == 0.0
    assert exactness("what is MAX_RETRY_BUDGET") == 0.5
    assert exactness('"ECONNRESET" in retry.py at 30 s') == 1.0


def hits(*pairs: tuple[int, float]) -> list[Hit]:
    return [Hit(SimpleNamespace(pk=pk), relevance) for pk, relevance in pairs]  # type: ignore[arg-type]


def order(found: list[Any]) -> list[int]:
    return [hit.note.pk for hit in found]


def test_rrf_share_decides_between_disagreeing_retrievers() -> None:
    keyword, vector = hits((1, 1.0), (2, 0.9)), hits((2, 0.8), (1, 0.7))
    assert order(Fusion("v", "rrf", 0.75, 5).fuse("x", keyword, vector)) == [2, 1]
    assert order(Fusion("k", "rrf", 0.25, 5).fuse("x", keyword, vector)) == [1, 2]


def test_convex_uses_score_gaps_not_only_ranks() -> None:
    # The vector retriever barely prefers 2; keyword search strongly prefers 1.
    keyword = hits((1, 1.0), (2, 0.2))
    vector = hits((2, 0.61), (1, 0.60), (3, 0.30))
    fused = Fusion("c", "convex", 0.6).fuse("x", keyword, vector)
    assert order(fused)[0] == 1
    assert fused[0].relevance == 1.0  # relative to the best
    assert all(0.0 <= hit.relevance <= 1.0 for hit in fused)


def test_a_note_found_by_one_retriever_only_is_kept() -> None:
    fused = Fusion("c", "convex", 0.5).fuse("x", hits((1, 1.0)), hits((2, 0.9)))
    assert set(order(fused)) == {1, 2}


def test_exact_queries_lean_to_keywords() -> None:
    leaning = Fusion("lean", "rrf", 0.75, 20, exact_lean=0.6)
    assert leaning.share_for("what did we decide about caching") == 0.75
    assert leaning.share_for('"ECONNRESET" in retry.py') == pytest.approx(0.75 * 0.4)
    keyword, vector = hits((1, 1.0), (2, 0.9)), hits((2, 0.8), (1, 0.7))
    assert order(leaning.fuse("plain words", keyword, vector)) == [2, 1]
    assert order(leaning.fuse('"ECONNRESET" in retry.py', keyword, vector)) == [1, 2]


def test_nothing_found_fuses_to_nothing() -> None:
    assert Fusion("c", "convex", 0.5).fuse("x", [], []) == []
    assert Fusion("r", "rrf", 0.5).fuse("x", [], []) == []
