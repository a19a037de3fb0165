"""HTTP embedding providers: any OpenAI-compatible /v1/embeddings, and Voyage AI.

Batched, with a timeout per request and retries with exponential backoff on timeouts, connection
errors, 429 and 5xx. Anything else, or running out of retries, is a ProviderError.
"""

from __future__ import annotations

import math
import time
from typing import Any

import httpx2

from memory.embeddings.base import EmbeddingProvider, Kind, ProviderError

RETRY_STATUSES = frozenset({408, 409, 425, 429, 500, 502, 503, 504})


class _HttpProvider(EmbeddingProvider):
    path = "/embeddings"

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str,
        dimensions: int = 0,
        timeout: float = 10.0,
        batch_size: int = 64,
        retries: int = 3,
        backoff: float = 0.5,
    ) -> None:
        if not base_url or not model:
            raise ProviderError("EMBEDDINGS_BASE_URL and EMBEDDINGS_MODEL must be set for an HTTP provider")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key = api_key
        self.dim = dimensions
        self.timeout = timeout
        self.batch_size = batch_size
        self.retries = retries
        self.backoff = backoff
        self.model_id = f"{self.name}:{model}:{dimensions or 'default'}"

    name = "http"

    def payload(self, texts: list[str], kind: Kind) -> dict[str, Any]:
        raise NotImplementedError

    def embed(self, texts: list[str], kind: Kind = "document") -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            vectors.extend(self._post(texts[start : start + self.batch_size], kind))
        return vectors

    def _post(self, texts: list[str], kind: Kind) -> list[list[float]]:
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        last_error = "no attempt made"
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(self.backoff * 2 ** (attempt - 1))
            try:
                response = httpx2.post(
                    self.base_url + self.path,
                    json=self.payload(texts, kind),
                    headers=headers,
                    timeout=self.timeout,
                )
            except httpx2.TransportError as exc:
                last_error = f"{type(exc).__name__}"
                continue
            if response.status_code in RETRY_STATUSES:
                last_error = f"HTTP {response.status_code}"
                continue
            if response.status_code != 200:
                raise ProviderError(
                    f"{self.name} embeddings refused the request: HTTP {response.status_code}"
                )
            return self._parse(response, len(texts))
        raise ProviderError(f"{self.name} embeddings failed after {self.retries + 1} attempts: {last_error}")

    def _parse(self, response: httpx2.Response, expected: int) -> list[list[float]]:
        try:
            rows = sorted(response.json()["data"], key=lambda row: row["index"])
            vectors = [[float(x) for x in row["embedding"]] for row in rows]
        except (ValueError, KeyError, TypeError) as exc:
            raise ProviderError(f"{self.name} embeddings returned an unexpected body") from exc
        if len(vectors) != expected or any(not v for v in vectors):
            raise ProviderError(
                f"{self.name} embeddings returned {len(vectors)} vectors for {expected} texts"
            )
        if not self.dim:
            self.dim = len(vectors[0])
        return [_normalised(v) for v in vectors]


def _normalised(vector: list[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    return [x / norm for x in vector]


class OpenAICompatible(_HttpProvider):
    name = "openai"

    def payload(self, texts: list[str], kind: Kind) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.model, "input": texts}
        if self.dim:
            body["dimensions"] = self.dim
        return body


class Voyage(_HttpProvider):
    name = "voyage"

    def payload(self, texts: list[str], kind: Kind) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.model, "input": texts, "input_type": kind}
        if self.dim:
            body["output_dimension"] = self.dim
        return body
