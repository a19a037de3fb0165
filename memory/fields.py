"""An embedding column that is a pgvector `vector` where the extension exists and `real[]` elsewhere.

The column type is decided when the migration runs, from the connected server: PostgreSQL with
pgvector gets `vector` (indexable with HNSW), a server without it (the machine's PostgreSQL 15) gets
a plain float array that the in-process scan can still rank. Python always sees `list[float] | None`.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper


def vector_extension_installed(connection: BaseDatabaseWrapper) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'")
        return cursor.fetchone() is not None


def embedding_column_is_vector(connection: BaseDatabaseWrapper) -> bool:
    """Whether memory_note.embedding was created as `vector` on this database (cached per connection)."""
    cached: bool | None = getattr(connection, "_knownbase_embedding_is_vector", None)
    if cached is None:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT udt_name FROM information_schema.columns "
                "WHERE table_name = 'memory_note' AND column_name = 'embedding'"
            )
            row = cursor.fetchone()
        cached = bool(row and row[0] == "vector")
        connection._knownbase_embedding_is_vector = cached  # type: ignore[attr-defined]
    return cached


class EmbeddingField(models.Field):  # type: ignore[type-arg]
    description = "An embedding vector (pgvector where available, real[] otherwise)"

    def db_type(self, connection: BaseDatabaseWrapper) -> str:
        return "vector" if vector_extension_installed(connection) else "real[]"

    def from_db_value(
        self, value: Any, expression: Any, connection: BaseDatabaseWrapper
    ) -> list[float] | None:
        return self.to_python(value)

    def to_python(self, value: Any) -> list[float] | None:
        if value is None:
            return None
        if isinstance(value, str):
            inner = value.strip().strip("[]{}")
            return [float(part) for part in inner.split(",")] if inner else []
        return [float(part) for part in value]

    def get_db_prep_value(self, value: Any, connection: BaseDatabaseWrapper, prepared: bool = False) -> Any:
        vector = self.to_python(value)
        if vector is None:
            return None
        if embedding_column_is_vector(connection):
            # psycopg sends str parameters untyped, so PostgreSQL parses this as the column's vector type.
            return "[" + ",".join(repr(float(x)) for x in vector) + "]"
        return vector
