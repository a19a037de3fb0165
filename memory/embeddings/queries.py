from __future__ import annotations

from django.db.models import F, Q, QuerySet

from memory.models import Note


def missing_embeddings(model_id: str) -> QuerySet[Note]:
    """Live notes without a vector of `model_id` for their current text."""
    return Note.objects.filter(deleted_at__isnull=True).filter(
        ~Q(embedding_model=model_id) | ~Q(embedding_hash=F("content_hash")) | Q(embedding__isnull=True)
    )
