"""Point the test process's Celery app at another broker for one test, then back; and run real Celery
worker processes on private queues of that broker (a default queue and a bulk queue)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import redis
from django.db import connection

from knownbase.celery import app
from tests import tiers

ROOT = Path(__file__).resolve().parents[1]
_SAVED = ("task_always_eager", "broker_url", "task_default_queue", "task_routes")


@dataclass(frozen=True)
class Queues:
    """A test's own queue names, so no other test's worker (or the machine's) takes its messages."""

    default: str
    bulk: str

    @classmethod
    def private(cls, prefix: str) -> Queues:
        name = f"{prefix}-{os.getpid()}"
        return cls(default=name, bulk=f"{name}-bulk")

    @property
    def both(self) -> tuple[str, str]:
        return (self.default, self.bulk)


def _drop_connections() -> None:
    # Connection and producer pools are bound to the broker they were made for, and the router keeps
    # the routes it first read.
    app._pool = None
    app.amqp._producer_pool = None
    app.amqp._rtable = None
    app.amqp.__dict__.pop("router", None)


def _routes_to(bulk: str) -> dict[str, dict[str, str]]:
    routes = dict(app.conf.task_routes or {})
    return {task: {**route, "queue": bulk} for task, route in routes.items()}


@contextmanager
def broker(url: str, queue: str | None = None, bulk_queue: str | None = None) -> Iterator[None]:
    saved = {key: app.conf[key] for key in _SAVED}
    changes: dict[str, object] = {"task_always_eager": False, "broker_url": url}
    if queue is not None:
        changes["task_default_queue"] = queue
    if bulk_queue is not None:
        changes["task_routes"] = _routes_to(bulk_queue)
    app.conf.update(changes)
    _drop_connections()
    try:
        yield
    finally:
        app.conf.update(saved)
        _drop_connections()


def start_worker(
    redis_url: str, queues: Queues, consume: tuple[str, ...], **environment: str
) -> subprocess.Popen[bytes]:
    """A Celery worker process on the test database consuming `consume` (names of `queues`), with
    `queues` as its own default and bulk queues; stop it with stop_worker in a finaliser."""
    tiers.require(tiers.SLOW)
    redis.Redis.from_url(redis_url).ping()
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(
        REDIS_URL=redis_url,
        CELERY_QUEUE=queues.default,
        CELERY_BULK_QUEUE=queues.bulk,
        KNOWNBASE_DB_NAME=connection.settings_dict["NAME"],
        **environment,
    )
    if "DATABASE_URL" in env:
        base = env["DATABASE_URL"].rsplit("/", 1)[0]
        env["DATABASE_URL"] = f"{base}/{connection.settings_dict['NAME']}"
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "knownbase", "worker", "-Q", ",".join(consume), "--pool=solo",
         "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=WARNING"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip


def stop_worker(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=20)
    if process.stderr is not None:
        process.stderr.close()
    # The worker's connections to the test database end with it; nothing else to close.


def forget_queues(redis_url: str, queues: Queues) -> None:
    """Delete the queues and any message a killed worker left unacknowledged on them (kombu keeps
    those in one hash per database and would put them back on the queue an hour later)."""
    client = redis.Redis.from_url(redis_url)
    client.delete(*queues.both)
    for tag, raw in client.hgetall("unacked").items():
        _, _, routing_key = json.loads(raw)
        if routing_key in queues.both:
            client.hdel("unacked", tag)
            client.zrem("unacked_index", tag)


@contextmanager
def worker_process(redis_url: str, queue_prefix: str, **environment: str) -> Iterator[str]:
    """A Celery worker process on the test database, consuming its own default and bulk queues of
    `redis_url`, with the test process's tasks sent there; yields the default queue's name.
    `environment` adds settings for the worker (e.g. EMBEDDINGS_PROVIDER)."""
    queues = Queues.private(queue_prefix)
    process = start_worker(redis_url, queues, queues.both, **environment)
    try:
        with broker(redis_url, queues.default, queues.bulk):
            yield queues.default
    finally:
        stop_worker(process)
        forget_queues(redis_url, queues)
