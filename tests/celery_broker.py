"""Point the test process's Celery app at another broker for one test, then back; and run a real
Celery worker process on its own queue of that broker."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis
from django.db import connection

from knownbase.celery import app
from tests import tiers

ROOT = Path(__file__).resolve().parents[1]


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


@contextmanager
def worker_process(redis_url: str, queue_prefix: str, **environment: str) -> Iterator[str]:
    """A Celery worker process on the test database, consuming its own queue of `redis_url`, with the
    test process's tasks sent there; yields the queue's name. `environment` adds settings for the
    worker (e.g. EMBEDDINGS_PROVIDER)."""
    tiers.require(tiers.SLOW)
    redis.Redis.from_url(redis_url).ping()
    queue = f"{queue_prefix}-{os.getpid()}"
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(
        REDIS_URL=redis_url,
        CELERY_QUEUE=queue,
        KNOWNBASE_DB_NAME=connection.settings_dict["NAME"],
        **environment,
    )
    if "DATABASE_URL" in env:
        base = env["DATABASE_URL"].rsplit("/", 1)[0]
        env["DATABASE_URL"] = f"{base}/{connection.settings_dict['NAME']}"
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "knownbase", "worker", "-Q", queue, "--pool=solo",
         "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=WARNING"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        with broker(redis_url, queue):
            yield queue
    finally:
        process.terminate()
        process.wait(timeout=20)
        redis.Redis.from_url(redis_url).delete(queue)
        # The worker's connections to the test database end with it; nothing else to close.
