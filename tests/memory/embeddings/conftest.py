from __future__ import annotations

from collections.abc import Iterator

import pytest

from memory.embeddings import reset_provider


@pytest.fixture
def provider_settings(settings) -> Iterator[object]:
    """Change EMBEDDINGS_* settings for one test; the cached provider follows."""
    reset_provider()
    yield settings
    reset_provider()
