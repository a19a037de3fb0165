"""Vector retrieval: pgvector HNSW where the server has it (mode `vector`), an in-process ranked scan
over stored embeddings elsewhere (mode `scan`), and the cached query vector both use."""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict
from typing import Any

import numpy as np
from django.core.cache import cache
from django.db import DatabaseError, connection, transaction
from django.db.models import QuerySet
from django.db.models.expressions import RawSQL

from accounts.breaker import CircuitBreaker
from memory.embeddings import Kind, ProviderError, get_provider
from memory.fields import embedding_column_is_vector
from memory.models import Note
from memory.recall.search import Hit

log = logging.getLogger(__name__)

VECTOR = "vector"
SCAN = "scan"
QUERY_VECTOR_TTL = 300
SCAN_LIMIT = 5000  # newest embedded notes the degraded scan considers
EF_SEARCH = 100


# The lowest cosine a note found only by the semantic leg may have to be returned, per embedding model
# id (EmbeddingProvider.model_id): below it a nearest neighbour is not an answer, and search says
# nothing rather than "11 best matches" for "zzzznotfound". Keyword hits are kept whatever their cosine.
# Each model's cosines sit in their own band, so each needs its own floor, chosen by
# tools/bench/floor_study.py on every labelled set and its no-answer queries (docs/search.md, "Saying
# nothing"). A model not listed has no floor (0.0): an uncalibrated floor could hide real answers.
RELEVANCE_FLOORS: dict[str, float] = {
    "all-MiniLM-L6-v2-int8": 0.27,
}


def relevance_floor(model_id: str) -> float:
    return RELEVANCE_FLOORS.get(model_id, 0.0)


def embedding_text(title: str, body: str) -> str:
    return f"{title}\n{body}".strip()


RECENT_VECTORS = 2048  # query vectors each process keeps in memory (a 384-float vector is ~3 KiB)


class RecentVectors:
    """An LRU of vectors this process computed or fetched, keyed by model, kind and text: a repeated
    query (an agent re-asking, get_context then search) costs neither the model nor a cache round trip."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, str, str], list[float]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str, str]) -> list[float] | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: tuple[str, str, str], vector: list[float]) -> None:
        with self._lock:
            self._items[key] = vector
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


recent_vectors = RecentVectors(RECENT_VECTORS)


def _cache_key(model_id: str, kind: str, text: str) -> str:
    return "vec:" + hashlib.sha256(f"{model_id}\n{kind}\n{text}".encode()).hexdigest()


def cached_vectors(model_id: str, kind: str, texts: list[str]) -> list[list[float] | None]:
    found = cache.get_many([_cache_key(model_id, kind, text) for text in texts])
    return [found.get(_cache_key(model_id, kind, text)) for text in texts]


# After the provider failed, searches and remembers answer by keywords without asking it again for
# this long (then one call probes it): an HTTP provider's retries would otherwise cost every call
# seconds. The background embedding tasks keep their own retries.
PROVIDER_RETRY_SECONDS = 30.0
_provider_breakers: dict[str, CircuitBreaker] = {}
_provider_breakers_lock = threading.Lock()


def provider_breaker(model_id: str) -> CircuitBreaker:
    with _provider_breakers_lock:
        found = _provider_breakers.get(model_id)
        if found is None:
            found = CircuitBreaker(f"Embeddings provider {model_id}", lambda: PROVIDER_RETRY_SECONDS)
            _provider_breakers[model_id] = found
        return found


def reset_provider_breakers() -> None:
    with _provider_breakers_lock:
        _provider_breakers.clear()


def vector_for(text: str, kind: Kind = "query") -> tuple[str, list[float]] | None:
    """(model id, vector) for `text`, cached briefly; None when no provider works right now. A
    document vector computed here (remember's candidate lookup) is reused by the embedding task."""
    provider = get_provider()
    if provider is None:
        return None
    recent_key = (provider.model_id, kind, text)
    remembered = recent_vectors.get(recent_key)
    if remembered is not None:
        return provider.model_id, remembered
    key = _cache_key(provider.model_id, kind, text)
    cached = cache.get(key)
    if cached is not None:
        recent_vectors.put(recent_key, list(cached))
        return provider.model_id, list(cached)
    breaker = provider_breaker(provider.model_id)
    if not breaker.allow():
        return None  # known to be failing: keyword search, without waiting for it
    try:
        vector = provider.embed([text], kind=kind)[0]
    except ProviderError as exc:
        breaker.failed(exc)  # one warning per outage
        return None
    except Exception as exc:
        log.exception("embedding crashed, answering with keyword search")
        breaker.failed(exc)
        return None
    breaker.succeeded()
    cache.set(key, vector, QUERY_VECTOR_TTL)
    recent_vectors.put(recent_key, vector)
    return provider.model_id, vector


def query_vector(text: str) -> tuple[str, list[float]] | None:
    return vector_for(text, "query")


def index_name(model_id: str) -> str:
    return "note_embedding_hnsw_" + hashlib.sha1(model_id.encode()).hexdigest()[:12]  # noqa: S324 - a name, not security


# Catalogue facts that only ever become true (an index is created, never dropped by the app), cached
# per database so a search does not ask the catalogue each time.
_known_indexes: set[tuple[str, str]] = set()
_iterative_scan: dict[str, bool] = {}


def has_vector_index(model_id: str) -> bool:
    if not embedding_column_is_vector(connection):
        return False
    cache_key = (str(connection.settings_dict["NAME"]), model_id)
    if cache_key in _known_indexes:
        return True
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_indexes WHERE indexname = %s", [index_name(model_id)])
        found = cursor.fetchone() is not None
    if found:
        _known_indexes.add(cache_key)
    return found


def ensure_vector_index(model_id: str, dim: int) -> bool:
    """Create the HNSW index for one model's vectors (a partial expression index, so vectors of other
    models and sizes can live in the same column). False where the server has no pgvector."""
    if not embedding_column_is_vector(connection) or dim <= 0:
        return False
    if has_vector_index(model_id):
        return True
    name = index_name(model_id)
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE INDEX IF NOT EXISTS {name} ON memory_note "
            f"USING hnsw ((embedding::vector({int(dim)})) vector_cosine_ops) "
            "WHERE embedding_model = %s",
            [model_id],
        )
    return True


def _pgvector_supports_iterative_scan() -> bool:
    database = str(connection.settings_dict["NAME"])
    if database not in _iterative_scan:
        with connection.cursor() as cursor:
            cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
            row = cursor.fetchone()
        version = tuple(int(part) for part in str(row[0]).split(".")[:2]) if row else (0, 0)
        _iterative_scan[database] = version >= (0, 8)
    return _iterative_scan[database]


def nearest(notes: QuerySet[Note], model_id: str, vector: list[float], limit: int) -> tuple[list[Hit], str]:
    """The notes closest to `vector` among `notes` (already scoped to the caller), with the mode used."""
    if has_vector_index(model_id):
        try:
            return _nearest_indexed(notes, model_id, vector, limit), VECTOR
        except DatabaseError:
            log.exception("vector index query failed; falling back to the scan")
    return _nearest_scanned(notes, model_id, vector, limit), SCAN


def _nearest_indexed(notes: QuerySet[Note], model_id: str, vector: list[float], limit: int) -> list[Hit]:
    dim = len(vector)
    literal = "[" + ",".join(f"{x:.7f}" for x in vector) + "]"
    distance = RawSQL(f"(embedding::vector({dim})) <=> %s::vector({dim})", [literal])  # noqa: S611
    query = (
        notes.filter(embedding_model=model_id)
        .annotate(distance=distance)
        .order_by("distance")
        .select_related("project")[:limit]
    )
    # Filtered HNSW queries stay complete with iterative scans (pgvector 0.8+). SET LOCAL lasts until
    # the transaction ends: inside a write's transaction (remember) it needs no savepoint of its own,
    # which saves two round trips; a read outside one opens a transaction for it.
    iterative = (
        "SET LOCAL hnsw.iterative_scan = relaxed_order; " if _pgvector_supports_iterative_scan() else ""
    )
    settings_sql = f"{iterative}SET LOCAL hnsw.ef_search = {EF_SEARCH}"
    rows: list[Any]
    if connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute(settings_sql)
        rows = list(query)
    else:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(settings_sql)
            rows = list(query)
    rows.sort(key=lambda note: note.distance)  # relaxed_order may return near-ordered rows
    return [Hit(note, max(0.0, 1.0 - float(note.distance))) for note in rows]


def _nearest_scanned(notes: QuerySet[Note], model_id: str, vector: list[float], limit: int) -> list[Hit]:
    rows = list(
        notes.filter(embedding_model=model_id, embedding__isnull=False)
        .order_by("-updated_at")
        .values_list("pk", "embedding")[:SCAN_LIMIT]
    )
    if not rows:
        return []
    matrix = np.array([embedding for _, embedding in rows], dtype=np.float32)
    if matrix.ndim != 2 or matrix.shape[1] != len(vector):
        return []
    similarities = matrix @ np.array(vector, dtype=np.float32)
    best = np.argsort(-similarities)[:limit]
    by_pk = {
        note.pk: note for note in notes.filter(pk__in=[rows[i][0] for i in best]).select_related("project")
    }
    return [Hit(by_pk[rows[i][0]], max(0.0, float(similarities[i]))) for i in best if rows[i][0] in by_pk]
