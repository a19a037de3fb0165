"""Processes pointed at one data folder share one embedded server, and `stop` stops it for real."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import psutil
import pytest
from django.core.management import call_command
from django.test import override_settings

from knownbase import embedded_db

PROBE = (
    "import sys, psycopg; from knownbase import embedded_db; "
    "host = embedded_db.ensure_database(sys.argv[1], 'probe'); "
    "c = psycopg.connect(host=host, user='postgres', dbname='probe'); "
    "print(c.execute('select pg_postmaster_start_time()').fetchone()[0].isoformat()); "
    "print(c.execute(\"select count(*) from pg_available_extensions where name = 'vector'\").fetchone()[0])"
)
# A process that starts the server and then dies without running its exit handlers, as a uvicorn or
# worker stopped by a signal does: its pid stays in the wheel's handle file.
KILLED_STARTER = (
    "import os, sys; from knownbase import embedded_db; embedded_db.socket_dir(sys.argv[1]); "
    "sys.stdout.flush(); os._exit(0)"
)

pytestmark = pytest.mark.slow  # a fresh PostgreSQL server, probed by several processes


def _postmaster_pid(pgdata: Path) -> int:
    return int((pgdata / "postmaster.pid").read_text().splitlines()[0])


def test_concurrent_processes_share_one_server(tmp_path: Path):
    data_dir = str(tmp_path / "kb")
    try:
        probes = [
            subprocess.Popen([sys.executable, "-c", PROBE, data_dir], stdout=subprocess.PIPE, text=True)
            for _ in range(3)
        ]
        outputs = [probe.communicate(timeout=120)[0].split() for probe in probes]
        assert all(probe.returncode == 0 for probe in probes)
        start_times = {out[0] for out in outputs}
        assert len(start_times) == 1, "each process must reach the same postmaster"
        assert all(out[1] == "1" for out in outputs), "the embedded server ships pgvector"
        assert (tmp_path / "kb" / "pgdata" / "postmaster.pid").exists()
    finally:
        assert embedded_db.stop(data_dir).stopped
    assert not (tmp_path / "kb" / "pgdata" / "postmaster.pid").exists()


def test_db_stop_stops_the_server_despite_dead_handles(tmp_path: Path):
    data_dir = tmp_path / "kb"
    pgdata = data_dir / "pgdata"
    for _ in range(2):
        starter = subprocess.run(
            [sys.executable, "-c", KILLED_STARTER, str(data_dir)], timeout=120, check=False
        )
        assert starter.returncode == 0
    dead_handles = json.loads((pgdata / ".handle_pids.json").read_text())
    assert dead_handles and not any(psutil.pid_exists(pid) for pid in dead_handles if pid != os.getpid())
    postmaster = psutil.Process(_postmaster_pid(pgdata))
    out = StringIO()
    try:
        with override_settings(KNOWNBASE_DATA_DIR=data_dir):
            call_command("stop_embedded_db", stdout=out)
        postmaster.wait(30)  # psutil.TimeoutExpired here means the server outlived "stopped"
        assert not postmaster.is_running()
        assert f"stopped PostgreSQL (pid {postmaster.pid})" in out.getvalue()
        with override_settings(KNOWNBASE_DATA_DIR=data_dir):
            call_command("stop_embedded_db", stdout=out)
        assert "not running" in out.getvalue().splitlines()[-1]
    finally:
        if postmaster.is_running():
            postmaster.terminate()
            postmaster.wait(30)
