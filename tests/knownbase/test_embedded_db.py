"""Processes pointed at one data folder share one embedded server."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from knownbase import embedded_db

PROBE = (
    "import sys, psycopg; from knownbase import embedded_db; "
    "host = embedded_db.ensure_database(sys.argv[1], 'probe'); "
    "c = psycopg.connect(host=host, user='postgres', dbname='probe'); "
    "print(c.execute('select pg_postmaster_start_time()').fetchone()[0].isoformat()); "
    "print(c.execute(\"select count(*) from pg_available_extensions where name = 'vector'\").fetchone()[0])"
)

pytestmark = pytest.mark.slow  # a fresh PostgreSQL server, probed by three processes


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
        assert embedded_db.stop(data_dir)
    assert not (tmp_path / "kb" / "pgdata" / "postmaster.pid").exists()
