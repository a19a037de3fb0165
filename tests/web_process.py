"""Real uvicorn web processes (knownbase.asgi, as `make serve` runs it) for tests that need the
product in a process of its own: several behind one balancer, or one whose database is stopped."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx2

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


def start(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    tiers.require(tiers.LIVE_SERVER)
    tiers.require(tiers.SLOW)
    command = [sys.executable, "-m", "uvicorn", "knownbase.asgi:application", "--host", "127.0.0.1",
               "--port", str(port), "--lifespan", "on", "--log-level", "warning", "--no-access-log"]  # fmt: skip
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, start_new_session=True)


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
