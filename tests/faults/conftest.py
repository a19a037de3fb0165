"""Fixtures of the fault suite: private queues on the machine's Redis and worker processes a test may
kill, each stopped at the end."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator

import pytest

from tests.celery_broker import Queues, broker, forget_queues, start_worker, stop_worker
from tests.faults.workers import WORKER_ENV, Start
from tests.memory.embeddings.test_celery_worker import REDIS_URL


@pytest.fixture
def queues(transactional_db, settings) -> Iterator[Queues]:
    """This test's own default and bulk queues, the test process's tasks sent there."""
    settings.EMBEDDINGS_PROVIDER = "none"
    private = Queues.private("knownbase-faults")
    try:
        with broker(REDIS_URL, private.default, private.bulk):
            yield private
    finally:
        forget_queues(REDIS_URL, private)


@pytest.fixture
def workers(queues: Queues) -> Iterator[Start]:
    """start(consume=both queues) → a worker process; every one started is stopped at the end."""
    started: list[subprocess.Popen[bytes]] = []

    def start(consume: tuple[str, ...] | None = None) -> subprocess.Popen[bytes]:
        process = start_worker(REDIS_URL, queues, consume or queues.both, **WORKER_ENV)
        started.append(process)
        return process

    yield start
    for process in started:
        stop_worker(process)
