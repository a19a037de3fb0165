"""The fail-fast pool (knownbase/db_backend/base.py): a request never waits out the pool timeout for
a server that refuses connections, the service recovers with the server, and a connection the server
ended is never handed out."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from django.db import connection

from knownbase.db_backend.base import DatabaseUnreachable, FailFastPool, looks_closed
from tests.live_mcp import free_port

# Far longer than any test here may take: a request that waited it out would raise PoolTimeout.
LONG_WAIT = 60.0


def _server_params() -> dict[str, Any]:
    """Connection parameters of the test database (the embedded server or DATABASE_URL's)."""
    params = connection.get_connection_params()
    keep = ("host", "port", "user", "password", "dbname")
    return {name: params[name] for name in keep if params.get(name)}


def _nobody_listening() -> dict[str, Any]:
    return {"host": "127.0.0.1", "port": free_port(), "user": "postgres", "dbname": "x", "connect_timeout": 2}


def _wait_for(condition: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


@pytest.fixture
def make_pool() -> Iterator[Callable[..., FailFastPool]]:
    pools: list[FailFastPool] = []

    def make(kwargs: Any, **options: Any) -> FailFastPool:
        pool = FailFastPool(kwargs=kwargs, min_size=0, max_size=4, timeout=LONG_WAIT, open=True, **options)
        pools.append(pool)
        return pool

    yield make
    for pool in pools:
        pool.close()


def test_the_project_backend_builds_the_fail_fast_pool(db):
    assert isinstance(getattr(connection, "pool", None), FailFastPool)


def test_a_refused_connection_fails_the_request_at_once_not_after_the_timeout(make_pool):
    pool = make_pool(_nobody_listening())
    with pytest.raises(DatabaseUnreachable, match="unreachable"):
        pool.getconn()


def test_every_waiting_request_fails_with_the_attempt(make_pool):
    pool = make_pool(_nobody_listening())
    errors: list[BaseException] = []

    def request() -> None:
        try:
            pool.getconn().close()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=request) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=LONG_WAIT)
    assert len(errors) == 6
    assert all(isinstance(error, DatabaseUnreachable) for error in errors), errors


def test_the_next_request_connects_as_soon_as_the_server_answers_again(make_pool, db):
    server_up = threading.Event()
    good, bad = _server_params(), _nobody_listening()
    pool = make_pool(lambda: good if server_up.is_set() else bad)
    with pytest.raises(DatabaseUnreachable):
        pool.getconn()
    # The failed attempt is dropped, not retried in the background with a growing backoff.
    _wait_for(lambda: pool.get_stats()["pool_size"] == 0, "the failed attempt to be given up")

    server_up.set()
    conn = pool.getconn()
    try:
        assert conn.execute("SELECT 1").fetchone() == (1,)
    finally:
        pool.putconn(conn)


def test_a_connection_the_server_ended_is_replaced_not_handed_out(make_pool, db):
    pool = make_pool(_server_params())
    conn = pool.getconn()
    row = conn.execute("SELECT pg_backend_pid()").fetchone()
    assert row is not None
    ended_pid = row[0]
    pool.putconn(conn)

    with psycopg.connect(**_server_params(), autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [ended_pid])
    _wait_for(lambda: looks_closed(conn), "the ended session's socket to close")

    again = pool.getconn()
    try:
        row = again.execute("SELECT pg_backend_pid()").fetchone()
        assert row is not None and row[0] != ended_pid
    finally:
        pool.putconn(again)


def test_a_healthy_idle_connection_is_handed_out_again(make_pool, db):
    pool = make_pool(_server_params())
    conn = pool.getconn()
    assert not looks_closed(conn)
    pool.putconn(conn)
    again = pool.getconn()
    try:
        assert again is conn
    finally:
        pool.putconn(again)


def test_without_health_checks_a_pooled_connection_is_not_inspected(make_pool, db):
    pool = make_pool(_server_params(), check_on_checkout=False)
    conn = pool.getconn()
    pool.putconn(conn)
    conn.close()  # as if the server had ended it: the pool hands it out unexamined
    again = pool.getconn()
    try:
        assert again is conn and again.closed
    finally:
        pool.putconn(again)
