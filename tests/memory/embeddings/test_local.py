from __future__ import annotations

import math
from pathlib import Path

import pytest

from memory.embeddings import ProviderError
from memory.embeddings import local as local_module
from memory.embeddings.local import LocalMiniLM


@pytest.fixture(scope="module")
def model() -> LocalMiniLM:
    return LocalMiniLM()


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_vectors_are_384_d_and_normalised(model):
    vectors = model.embed(["Kestrel drops AIS messages older than 15 minutes", ""])
    assert [len(v) for v in vectors] == [384, 384]
    assert all(math.isclose(math.sqrt(sum(x * x for x in v)), 1.0, rel_tol=1e-4) for v in vectors)


def test_paraphrase_is_closer_than_an_unrelated_sentence(model):
    note, paraphrase, unrelated = model.embed(
        [
            "A man is eating food.",
            "A man is eating a piece of bread.",
            "The girl is carrying a baby.",
        ]
    )
    # Reference values of all-MiniLM-L6-v2 (fp32): 0.755 and -0.106; int8 stays within 0.02.
    assert cosine(note, paraphrase) == pytest.approx(0.755, abs=0.02)
    assert cosine(note, unrelated) < 0.0


def test_order_is_kept_across_length_sorted_batches(model):
    texts = [f"{'word ' * (i % 17)}sentence {i}" for i in range(70)]
    one_by_one = [model.embed([t])[0] for t in texts[:5]]
    batched = model.embed(texts)[:5]
    for single, in_batch in zip(one_by_one, batched, strict=True):
        assert cosine(single, in_batch) > 0.999


def test_a_file_with_another_hash_is_refused(tmp_path: Path, monkeypatch):
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not the model")
    monkeypatch.setattr(local_module, "_package_file", lambda package, *parts: fake)
    with pytest.raises(ProviderError, match="SHA-256"):
        LocalMiniLM().embed(["x"])
