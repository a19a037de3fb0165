"""Access reinforcement, off the read path: reads count what they returned in a buffer, and a flush
applies the counts later in one UPDATE statement, so a read request runs no write statement and
could be answered by a read replica.

The buffer is a Redis hash when REDIS_URL is set (shared by every web node; a Celery task flushes
it) and a locked dictionary in the process otherwise (a timer thread flushes it). Counts are a
ranking signal, not a record: a buffer lost to a crash loses a few increments, never a note, and
while Redis is unreachable reads are not counted at all rather than wait for it.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections import Counter
from collections.abc import Callable, Iterable

import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.utils import timezone

from accounts import scheduling

log = logging.getLogger(__name__)

FLUSH_DELAY_SECONDS = 30
_REDIS_HASH = "kb:reinforce"
_FLUSH_SCHEDULED = "kb:reinforce:scheduled"

_local_counts: Counter[int] = Counter()
_local_lock = threading.Lock()


@functools.cache
def _client(url: str) -> redis.Redis:
    # One client (and its connection pool) per process and URL: building one per read connected,
    # resolved the address and disconnected on every get_context and get_notes.
    timeout = settings.REDIS_TIMEOUT_SECONDS
    return redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)


def _redis() -> redis.Redis:
    return _client(settings.REDIS_URL)


def record(note_pks: Iterable[int]) -> None:
    """Count one read of each note. Never raises: a read must not fail for its bookkeeping."""
    pks = [int(pk) for pk in note_pks]
    if not pks:
        return
    try:
        if settings.REDIS_URL:
            _unless_redis_is_down(lambda: _count_in_redis(pks))
        else:
            with _local_lock:
                _local_counts.update(pks)
            _schedule_flush()
    except Exception:
        log.exception("could not record note reads for reinforcement")


def _count_in_redis(pks: list[int]) -> None:
    pipe = _redis().pipeline()
    for pk in pks:
        pipe.hincrby(_REDIS_HASH, str(pk), 1)
    pipe.execute()
    _schedule_flush()


def _unless_redis_is_down(operation: Callable[[], None]) -> None:
    # The cache backend on REDIS_URL (knownbase.resilient_cache) holds the breaker the cache and the
    # broker share: a Redis known to be down is not asked again, and its outage is logged once.
    guard = getattr(cache, "guard", None)
    if guard is None:
        operation()
    else:
        guard(operation, lambda: None)


def _schedule_flush() -> None:
    if not cache.add(_FLUSH_SCHEDULED, 1, timeout=FLUSH_DELAY_SECONDS):
        return
    if settings.REDIS_URL:
        scheduling.enqueue("memory.tasks.flush_reinforcement", countdown=FLUSH_DELAY_SECONDS)
    else:
        timer = threading.Timer(FLUSH_DELAY_SECONDS, _flush_in_thread)
        timer.daemon = True
        timer.start()


def _flush_in_thread() -> None:
    try:
        flush()
    except Exception:
        log.exception("reinforcement flush failed")
    finally:
        connection.close()


def _drain() -> dict[int, int]:
    if settings.REDIS_URL:
        client = _redis()
        pipe = client.pipeline()  # MULTI/EXEC: read and clear as one step, so no increment is lost
        pipe.hgetall(_REDIS_HASH)
        pipe.delete(_REDIS_HASH)
        raw, _ = pipe.execute()
        return {int(pk): int(n) for pk, n in raw.items()}
    with _local_lock:
        drained = dict(_local_counts)
        _local_counts.clear()
    return drained


def flush() -> int:
    """Apply the buffered counts in one statement; returns how many notes it touched."""
    counts = _drain()
    if not counts:
        return 0
    pks, increments = zip(*sorted(counts.items()), strict=True)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            """
            UPDATE memory_note AS n
               SET access_count = n.access_count + c.reads, last_accessed_at = %s
              FROM unnest(%s::bigint[], %s::int[]) AS c(id, reads)
             WHERE n.id = c.id
            """,
            [timezone.now(), list(pks), list(increments)],
        )
        return int(cursor.rowcount)
