"""Django borrows its connections from the psycopg pool, on the embedded backend too."""

from __future__ import annotations

import threading
from typing import Any

from django.conf import settings
from django.db import connection


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        row = cursor.fetchone()
    assert row is not None
    return int(row[0])


def _pool() -> Any:
    # `pool` exists on the PostgreSQL wrapper only; the stubs type `connection` as the base wrapper.
    return getattr(connection, "pool", None)


def test_closing_a_connection_returns_it_to_the_pool(transactional_db):
    # transactional_db: inside the `db` fixture's transaction Django defers close() to the end.
    pool = _pool()
    assert pool is not None, "the default database has no pool"
    if not settings.DATABASE_URL:
        assert connection.settings_dict["ENGINE"] == "knownbase.db_backend"
    connection.close()
    requests_before = pool.get_stats().get("requests_num", 0)

    pid = _backend_pid()
    connection.close()
    assert pool.get_stats()["requests_num"] == requests_before + 1

    # The server session outlived Django's close(): it went back to the pool instead of ending.
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
        assert cursor.fetchone() == (1,)


def test_threads_share_the_pool_and_give_connections_back(transactional_db):
    pool = _pool()
    assert pool is not None
    threads_at_once = pool.max_size + 2  # more than the pool holds: each waits for a returned one
    pids: list[int] = []
    failures: list[BaseException] = []

    def work() -> None:
        try:
            pids.append(_backend_pid())
        except BaseException as exc:
            failures.append(exc)
        finally:
            connection.close()

    workers = [threading.Thread(target=work) for _ in range(threads_at_once)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=30)
    assert not failures
    assert len(pids) == threads_at_once
    assert len(set(pids)) <= pool.max_size
