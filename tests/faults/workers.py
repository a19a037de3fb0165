"""What the worker fault tests share: a table held locked so a worker stops inside a job at a known
point, and the worker settings (tests/faults/conftest.py starts the processes)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.db import connection

from memory.models import TransferJob

# The worker beats every second and would call itself dead after 3 s of silence; the test process
# keeps the defaults (a sweep there sees a live worker as live) and moves its clock to sweep.
WORKER_ENV = {
    "EMBEDDINGS_PROVIDER": "none",
    "TRANSFER_JOB_HEARTBEAT_SECONDS": "1",
    "TRANSFER_JOB_SILENT_SECONDS": "3",
}

Start = Callable[..., "subprocess.Popen[bytes]"]


@contextmanager
def table_locked(table: str) -> Iterator[None]:
    """Hold `table` ACCESS EXCLUSIVE from a second connection: a worker's first query of it waits
    there, mid-job, until the block ends."""
    other = connection.copy()
    try:
        with other.cursor() as cursor:
            cursor.execute("BEGIN")
            cursor.execute(f"LOCK TABLE {connection.ops.quote_name(table)} IN ACCESS EXCLUSIVE MODE")
            yield
            cursor.execute("ROLLBACK")
    finally:
        other.close()


def job_row(public_id: str) -> TransferJob:
    return TransferJob.objects.defer("document", "content").get(public_id=public_id)
