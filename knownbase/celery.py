"""The Celery application, configured from Django settings (CELERY_* names)."""

from __future__ import annotations

import os

from celery import Celery
from celery.signals import worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "knownbase.settings")

app = Celery("knownbase")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_ready.connect
def _catch_up_embeddings(sender: object = None, **kwargs: object) -> None:
    # A worker that starts after a change of embedding provider re-embeds in the background.
    app.signature("memory.tasks.backfill_missing").delay()
