"""Real web processes for tests: uvicorn serving knownbase.asgi in a process of its own, on the test
database, with the environment a test gives it (REDIS_URL, limits, providers).

A process rather than a thread when the test needs settings of its own, several processes, or to
break something under the server without breaking the test process with it.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import httpx2
from django.db import connection

from tests import tiers
from tests.live_mcp import free_port

ROOT = Path(__file__).resolve().parents[1]
COMMAND = [sys.executable, "-m", "uvicorn", "knownbase.asgi:application", "--host", "127.0.0.1",
           "--lifespan", "on", "--log-level", "warning", "--no-access-log"]  # fmt: skip


def wait_ready(base: str, process: subprocess.Popen[bytes], timeout: float = 45.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the web process at {base} exited with {process.returncode}")
        try:
            if httpx2.get(f"{base}/readyz", timeout=2).status_code == 200:
                return
        except httpx2.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the web process at {base} did not become ready")


def environment(site_url: str, **settings: str) -> dict[str, str]:
    """This process's environment, pointed at the test database, with `settings` added."""
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "REDIS_URL")}
    env.update(
        KNOWNBASE_DB_NAME=connection.settings_dict["NAME"],
        SECRET_KEY=secrets.token_urlsafe(48),  # one key for every process, none from the data folder
        SITE_URL=site_url,
        DEBUG="false",
        LOG_LEVEL="WARNING",
    )
    if "DATABASE_URL" in env:
        env["DATABASE_URL"] = f"{env['DATABASE_URL'].rsplit('/', 1)[0]}/{connection.settings_dict['NAME']}"
    env.update(settings)
    return env


@contextmanager
def web_processes(
    count: int = 1,
    *,
    stderr: Path | None = None,
    settings: Mapping[str, str] | None = None,
    **more_settings: str,
) -> Iterator[list[str]]:
    """`count` uvicorn processes sharing one environment (SITE_URL is the first's address) with
    `settings` and `more_settings` added; yields their base URLs and stops them when the block ends.
    `stderr` keeps their log in a file."""
    tiers.require(tiers.LIVE_SERVER)
    tiers.require(tiers.SLOW)
    ports = [free_port() for _ in range(count)]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    env = environment(bases[0], **(settings or {}), **more_settings)
    log = stderr.open("ab") if stderr is not None else None
    processes = [
        subprocess.Popen(
            [*COMMAND, "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
            start_new_session=True,
        )
        for port in ports
    ]
    try:
        for base, process in zip(bases, processes, strict=True):
            wait_ready(base, process)
        yield bases
    finally:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=20)
        if log is not None:
            log.close()
