"""Embedding providers behind one small interface, chosen by settings.EMBEDDINGS_PROVIDER.

`local` (default): all-MiniLM-L6-v2 int8 ONNX shipped in a PyPI package, run with onnxruntime.
`openai` / `voyage`: HTTP providers. `none`: keyword search only.
"""

from __future__ import annotations

from functools import cache

from django.conf import settings

from memory.embeddings.base import EmbeddingProvider, Kind, ProviderError

__all__ = ["EmbeddingProvider", "Kind", "ProviderError", "get_provider", "reset_provider"]


@cache
def _build(
    name: str, base_url: str, model: str, api_key: str, dimensions: int, timeout: float
) -> EmbeddingProvider | None:
    if name == "none":
        return None
    # Each provider is imported only when chosen: the local one loads onnxruntime and the tokenizer.
    if name == "local":
        from memory.embeddings.local import LocalMiniLM

        return LocalMiniLM()
    if name == "openai":
        from memory.embeddings.http import OpenAICompatible

        return OpenAICompatible(
            base_url=base_url, model=model, api_key=api_key, dimensions=dimensions, timeout=timeout
        )
    if name == "voyage":
        from memory.embeddings.http import Voyage

        return Voyage(base_url=base_url, model=model, api_key=api_key, dimensions=dimensions, timeout=timeout)
    raise ProviderError(f"unknown embeddings provider {name!r}")


def get_provider() -> EmbeddingProvider | None:
    """The configured provider (built once per configuration), or None for keyword-only."""
    return _build(
        settings.EMBEDDINGS_PROVIDER,
        settings.EMBEDDINGS_BASE_URL,
        settings.EMBEDDINGS_MODEL,
        settings.EMBEDDINGS_API_KEY,
        settings.EMBEDDINGS_DIMENSIONS,
        settings.EMBEDDINGS_TIMEOUT,
    )


def reset_provider() -> None:
    _build.cache_clear()
