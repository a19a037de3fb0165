from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Literal

Kind = Literal["document", "query"]


class ProviderError(Exception):
    """The provider could not embed (down, slow, refused, misconfigured). Never fails a write or a search."""


class EmbeddingProvider(ABC):
    model_id: str
    dim: int

    @abstractmethod
    def embed(self, texts: list[str], kind: Kind = "document") -> list[list[float]]:
        """One L2-normalised vector of `dim` floats per text, in order."""
