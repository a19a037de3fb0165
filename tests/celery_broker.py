"""Point the test process's Celery app at another broker for one test, then back."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from knownbase.celery import app


def _drop_connections() -> None:
    # Connection and producer pools are bound to the broker they were made for.
    app._pool = None
    app.amqp._producer_pool = None


@contextmanager
def broker(url: str, queue: str | None = None) -> Iterator[None]:
    saved = {key: app.conf[key] for key in ("task_always_eager", "broker_url", "task_default_queue")}
    app.conf.update(
        task_always_eager=False, broker_url=url, task_default_queue=queue or saved["task_default_queue"]
    )
    _drop_connections()
    try:
        yield
    finally:
        app.conf.update(saved)
        _drop_connections()
