"""The in-process LRU of query vectors: bounded, most recent kept, and used before the model."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache

from memory.recall import semantic
from memory.recall.semantic import RecentVectors


def test_the_least_recently_used_vector_goes_first() -> None:
    recent = RecentVectors(2)
    recent.put(("m", "query", "a"), [1.0])
    recent.put(("m", "query", "b"), [2.0])
    assert recent.get(("m", "query", "a")) == [1.0]  # a is now the most recent
    recent.put(("m", "query", "c"), [3.0])
    assert recent.get(("m", "query", "b")) is None
    assert recent.get(("m", "query", "a")) == [1.0]
    assert recent.get(("m", "query", "c")) == [3.0]


def test_the_key_names_model_kind_and_text() -> None:
    recent = RecentVectors(4)
    recent.put(("m1", "query", "x"), [1.0])
    assert recent.get(("m2", "query", "x")) is None
    assert recent.get(("m1", "document", "x")) is None


class CountingProvider:
    model_id = "counting-test-model"
    dimensions = 3

    def __init__(self) -> None:
        self.calls = 0

    def embed(self, texts: list[str], kind: str = "document") -> list[list[float]]:
        self.calls += 1
        return [[float(len(text)), 0.0, 1.0] for text in texts]


def test_a_repeated_query_skips_the_model_and_the_shared_cache(monkeypatch: Any) -> None:
    provider = CountingProvider()
    monkeypatch.setattr(semantic, "get_provider", lambda: provider)
    first = semantic.vector_for("where is the retry budget set?")
    cache.clear()  # the shared cache forgets it: the process still remembers
    second = semantic.vector_for("where is the retry budget set?")
    assert first == second == ("counting-test-model", [30.0, 0.0, 1.0])
    assert provider.calls == 1
    semantic.recent_vectors.clear()
    cache.clear()
    semantic.vector_for("where is the retry budget set?")
    assert provider.calls == 2
