from django.db import migrations

DEFAULT_MODEL_ID = "all-MiniLM-L6-v2-int8"  # memory.embeddings.local.LocalMiniLM.model_id, frozen here
DEFAULT_DIM = 384


def create_default_index(apps, schema_editor):
    """HNSW index for the bundled local model's vectors, where the column is a pgvector `vector`."""
    from memory.recall.semantic import index_name

    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "SELECT udt_name FROM information_schema.columns "
            "WHERE table_name = 'memory_note' AND column_name = 'embedding'"
        )
        row = cursor.fetchone()
        if row is None or row[0] != "vector":
            return
        cursor.execute(
            f"CREATE INDEX IF NOT EXISTS {index_name(DEFAULT_MODEL_ID)} ON memory_note "
            f"USING hnsw ((embedding::vector({DEFAULT_DIM})) vector_cosine_ops) WHERE embedding_model = %s",
            [DEFAULT_MODEL_ID],
        )


def drop_default_index(apps, schema_editor):
    from memory.recall.semantic import index_name

    schema_editor.execute(f"DROP INDEX IF EXISTS {index_name(DEFAULT_MODEL_ID)}")


class Migration(migrations.Migration):
    dependencies = [("memory", "0001_initial")]

    operations = [migrations.RunPython(create_default_index, drop_default_index)]
