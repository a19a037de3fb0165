"""PostgreSQL backend: the embedded server started on first connection, and a pool that fails fast.

Starting the server lazily (instead of in settings) keeps `import knownbase.settings` free of side
effects: ruff, mypy and `manage.py check` never start a database they do not need.

psycopg's pool, while the server is unreachable, keeps a request waiting for the whole pool timeout
and retries the connection in the background with a backoff of up to minutes, so the service is
slow to fail and slow to recover. This pool fails every waiting request as soon as a connection
attempt fails with no idle connection to hand out, drops the attempt instead of retrying it (the
next request tries again at once, so the service recovers with the server), and checks a pooled
connection on checkout without a round trip to the server.
"""

from __future__ import annotations

import select
from typing import Any

import psycopg
from django.core.exceptions import ImproperlyConfigured
from django.db.backends.base.base import NO_DB_ALIAS
from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool

from knownbase import embedded_db


class DatabaseUnreachable(psycopg.OperationalError):
    """A connection attempt failed while no pooled connection was free: the server is down or
    unreachable (or refuses connections), and waiting for the pool timeout would not change that."""


def looks_closed(conn: psycopg.Connection[Any]) -> bool:
    """Whether an idle connection is known to be dead without asking the server: closed on our
    side, or its socket has something to read. An idle connection is sent nothing unless the server
    is ending it (a restart, a terminated backend); anything else there (a notice) is checked with a
    real round trip, which also reads it."""
    if conn.closed or conn.broken:
        return True
    poller = select.poll()
    try:
        poller.register(conn.fileno(), select.POLLIN | select.POLLERR | select.POLLHUP)
    except (OSError, ValueError, psycopg.Error):
        return True
    if not poller.poll(0):
        return False
    try:
        ConnectionPool.check_connection(conn)
    except psycopg.Error:
        return True
    return False


class FailFastPool(ConnectionPool[psycopg.Connection[Any]]):
    def __init__(self, *args: Any, check_on_checkout: bool = True, **kwargs: Any) -> None:
        # A failed attempt is not retried in the background (see _connect): the pool's count
        # drops back, so the next request that needs a connection starts a fresh attempt.
        kwargs.setdefault("reconnect_timeout", 0.0)
        super().__init__(*args, **kwargs)
        self.check_on_checkout = check_on_checkout

    def getconn(self, timeout: float | None = None) -> psycopg.Connection[Any]:
        # Not the pool's `check` callback: a failed check there sleeps a backoff of a second or more
        # before the next try, and the check itself is a round trip on every checkout.
        while True:
            conn = super().getconn(timeout)
            if not self.check_on_checkout or not looks_closed(conn):
                return conn
            conn.close()
            self.putconn(conn)  # a closed connection is discarded, and replaced by the pool

    def _connect(self, timeout: float | None = None) -> psycopg.Connection[Any]:
        try:
            return super()._connect(timeout)
        except Exception as exc:
            self._fail_waiting(exc)
            raise

    def _fail_waiting(self, exc: Exception) -> None:
        with self._lock:
            if self._pool:
                return  # an idle connection is left: whoever waits is served by it
            waiting = list(self._waiting)
            self._waiting.clear()
        for client in waiting:
            # One exception object each: they are raised in different threads.
            client.fail(DatabaseUnreachable(f"the database is unreachable: {exc}"))

    def reconnect_failed(self) -> None:
        super().reconnect_failed()
        # A request that queued after the failed attempt last failed the waiters, but before the
        # pool gave the attempt up, found a growth under way and started none: start one now.
        with self._lock:
            if self._waiting:
                self._maybe_grow_pool()


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self) -> dict[str, Any]:
        params = super().get_connection_params()
        data_dir = self.settings_dict["OPTIONS"].get("embedded_data_dir")
        params.pop("embedded_data_dir", None)
        if data_dir:
            params["host"] = embedded_db.ensure_database(str(data_dir), str(params.get("dbname", "postgres")))
            params.setdefault("user", "postgres")
        return params

    @property
    def pool(self) -> FailFastPool | None:
        # Django's own property, building a FailFastPool.
        pool_options = self.settings_dict["OPTIONS"].get("pool")
        if self.alias == NO_DB_ALIAS or not pool_options:
            return None
        django_side: Any = self  # the stubs lack the pool's internals of Django's wrapper
        pools: dict[str, FailFastPool] = django_side._connection_pools
        if self.alias not in pools:
            if self.settings_dict.get("CONN_MAX_AGE", 0) != 0:
                raise ImproperlyConfigured("Pooling doesn't support persistent connections.")
            options = {} if pool_options is True else dict(pool_options)
            connect_kwargs = self.get_connection_params()
            connect_kwargs["autocommit"] = True  # Django sets it properly later on
            pool = FailFastPool(
                kwargs=connect_kwargs,
                open=False,
                configure=django_side._configure_connection,
                check_on_checkout=bool(self.settings_dict["CONN_HEALTH_CHECKS"]),
                **options,
            )
            # Threads racing at start-up may each build one; the first stored wins.
            pools.setdefault(self.alias, pool)
        return pools[self.alias]
