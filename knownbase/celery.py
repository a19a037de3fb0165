"""The Celery application, configured from Django settings (CELERY_* names), and the task class every
task uses: one that is never lost when the broker cannot take it."""

from __future__ import annotations

import logging
import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any

import kombu.exceptions
from celery import Celery, Task
from celery.result import EagerResult
from celery.signals import worker_ready
from django.db import connections

from knownbase import breaker
from knownbase.resilient_cache import REDIS_ERRORS

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "knownbase.settings")

log = logging.getLogger(__name__)

# kombu reports a broker it cannot reach as OperationalError; a socket error may surface raw.
BROKER_ERRORS: tuple[type[BaseException], ...] = (kombu.exceptions.OperationalError, *REDIS_ERRORS)
# Threads that run tasks the broker could not take (the `thread` fallback), per process.
FALLBACK_THREADS = 2

INLINE = "inline"
THREAD = "thread"

_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()
_pending: set[Future[Any]] = set()


class ResilientTask(Task):
    """A task whose `delay`/`apply_async` never fails for want of a broker: when Redis is
    unreachable (or the breaker is open after it was), the task runs in this process instead.

    `when_unqueued` (a task option) says how: `inline` (the default) runs it before the call
    returns — audit rows, mail a page promised, so a request's answer implies the work is done;
    `thread` runs it in a small pool of background threads — long jobs (exports, imports,
    embeddings) and work whose duration must not show in the request (a reset mail only some
    addresses get). A countdown or eta is not honoured then: the work runs now rather than never.
    """

    when_unqueued = INLINE

    def apply_async(self, args: Any = None, kwargs: Any = None, *rest: Any, **options: Any) -> Any:
        if self.app.conf.task_always_eager:
            return super().apply_async(args, kwargs, *rest, **options)
        if breaker.redis.allow():
            try:
                result = super().apply_async(args, kwargs, *rest, **options)
            except BROKER_ERRORS as error:
                breaker.redis.failed(error)
            else:
                breaker.redis.succeeded()
                return result
        return self.run_unqueued(args, kwargs)

    def run_unqueued(self, args: Any = None, kwargs: Any = None) -> EagerResult | Future[Any]:
        if self.when_unqueued == THREAD:
            return _submit(self, tuple(args or ()), dict(kwargs or {}))
        return self.apply(args, kwargs)


def _submit(task: Task, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Future[Any]:
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(FALLBACK_THREADS, thread_name_prefix="unqueued-task")
        future = _executor.submit(_run_in_thread, task, args, kwargs)
        _pending.add(future)
    future.add_done_callback(_pending.discard)
    return future


def _run_in_thread(task: Task, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    try:
        return task.apply(args, kwargs)
    except Exception:
        log.exception("task %s run in-process (no broker) failed", task.name)
        raise
    finally:
        # This thread's connections would otherwise hold pool slots for the life of the process.
        connections.close_all()


def finish_unqueued(timeout: float) -> bool:
    """Wait until every task handed to the fallback threads has ended; False on timeout."""
    with _executor_lock:
        pending = set(_pending)
    _, not_done = wait(pending, timeout=timeout)
    return not not_done


app = Celery("knownbase", task_cls=ResilientTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_ready.connect
def _catch_up_embeddings(sender: object = None, **kwargs: object) -> None:
    # A worker that starts after a change of embedding provider re-embeds in the background.
    app.signature("memory.tasks.backfill_missing").delay()
