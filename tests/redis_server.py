"""A private redis-server on a free loopback port, which a test may stop and start again.

For tests that break Redis: the machine's shared Redis (6379) is never stopped. Nothing is saved to
disk (`--save ""`, no append-only file), so a stopped server comes back empty, as a Redis without
persistence does after a crash.
"""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis

from tests import tiers
from tests.live_mcp import free_port


class RedisServer:
    def __init__(self, workdir: Path, port: int | None = None) -> None:
        self.workdir = workdir
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 30.0) -> None:
        tiers.require(tiers.SLOW)
        if self.process is not None:
            return
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + timeout
        while True:
            try:
                if redis.Redis.from_url(self.url, socket_connect_timeout=1).ping():
                    return
            except redis.exceptions.ConnectionError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.05)

    def stop(self, timeout: float = 20.0) -> None:
        """Stop the server and wait until its port refuses connections."""
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=timeout)
        deadline = time.monotonic() + timeout
        while _listening(self.port) and time.monotonic() < deadline:
            time.sleep(0.05)


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(1)
        return sock.connect_ex(("127.0.0.1", port)) == 0


@contextmanager
def redis_server(workdir: Path) -> Iterator[RedisServer]:
    """A running private Redis, stopped when the block ends (whatever the test did to it)."""
    server = RedisServer(workdir)
    server.start()
    try:
        yield server
    finally:
        server.stop()
