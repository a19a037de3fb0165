"""Real uvicorn web processes (knownbase.asgi, as `make serve` runs it) for tests that need the
product in a process of its own: several behind one balancer, one whose database is stopped, or one
whose Redis or embeddings provider fails under it (tests/faults/)."""

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
from typing import IO

import httpx2
from django.db import connection

from tests import tiers
from tests.live_mcp import free_port

ROOT = Path(__file__).resolve().parents[1]
# The test process's own settings that must not leak into a web process: it is given its own.
NOT_INHERITED = ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL")


def web_environment(**settings: str) -> dict[str, str]:
    """This process's environment without its Django and service settings, plus `settings`."""
    env = {k: v for k, v in os.environ.items() if k not in NOT_INHERITED}
    env.update(settings)
    return env


def wait_ready(
    base: str, process: subprocess.Popen[bytes], path: str = "/readyz", timeout: float = 45.0
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the web process at {base} exited with {process.returncode}")
        try:
            if httpx2.get(f"{base}{path}", timeout=2).status_code == 200:
                return
        except httpx2.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the web process at {base} did not become ready")


def start(env: dict[str, str], port: int, stderr: int | IO[bytes] | None = None) -> subprocess.Popen[bytes]:
    tiers.require(tiers.LIVE_SERVER)
    tiers.require(tiers.SLOW)
    command = [sys.executable, "-m", "uvicorn", "knownbase.asgi:application", "--host", "127.0.0.1",
               "--port", str(port), "--lifespan", "on", "--log-level", "warning", "--no-access-log"]  # fmt: skip
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True
    )


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=20)


@contextmanager
def web_process(
    env: dict[str, str], port: int | None = None
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """One uvicorn process on a free port (or `port`); its base URL and process until the block ends."""
    port = port or free_port()
    base = f"http://127.0.0.1:{port}"
    process = start(env, port)
    try:
        wait_ready(base, process)
        yield base, process
    finally:
        stop(process)


def environment_on_test_database(site_url: str, **settings: str) -> dict[str, str]:
    """web_environment on the test database, with one fresh SECRET_KEY, SITE_URL and quiet logs."""
    env = web_environment(
        KNOWNBASE_DB_NAME=connection.settings_dict["NAME"],
        SECRET_KEY=secrets.token_urlsafe(48),  # one key for every process, none from the data folder
        SITE_URL=site_url,
        DEBUG="false",
        LOG_LEVEL="WARNING",
    )
    if "DATABASE_URL" in os.environ:
        base_url = os.environ["DATABASE_URL"].rsplit("/", 1)[0]
        env["DATABASE_URL"] = f"{base_url}/{connection.settings_dict['NAME']}"
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
    """`count` uvicorn processes on the test database sharing one environment (SITE_URL is the
    first's address) with `settings` and `more_settings` added; yields their base URLs and stops
    them when the block ends. `stderr` keeps their log in a file."""
    ports = [free_port() for _ in range(count)]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    env = environment_on_test_database(bases[0], **(settings or {}), **more_settings)
    log = stderr.open("ab") if stderr is not None else None
    processes = [start(env, port, log) for port in ports]
    try:
        for base, process in zip(bases, processes, strict=True):
            wait_ready(base, process)
        yield bases
    finally:
        for process in processes:
            stop(process)
        if log is not None:
            log.close()
