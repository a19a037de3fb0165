"""Where a web process spends its time under the load run's mix: a sampling profile of the server.

Usage: .venv/bin/python tools/bench/profile_mcp.py [--clients 16] [--seconds 30] [--reuse]

Seeds (or, with --reuse, reuses) the load run's database, serves knownbase.asgi with uvicorn in a
thread of this process, drives the same MCP client mix from the main thread, and samples every
server thread's stack every few milliseconds (no profiler package needed). A sample counts as work
unless the thread is parked: an idle executor thread, the event loop waiting for sockets, or a
thread waiting for PostgreSQL or Redis to answer (counted apart, as waits). Printed: the share of
working samples by package of the innermost frame, and by the innermost function of our own code.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from types import FrameType

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tools.bench import load_run

OWN = ("accounts/", "billing/", "memory/", "mcp_gateway/", "knownbase/", "api/", "web/")
IDLE = (
    ("concurrent/futures/thread.py", "_worker"),
    ("selectors.py", "select"),
    ("threading.py", "wait"),
    ("queue.py", "get"),
)


def classify(frame: FrameType) -> tuple[str, str, str]:
    """(kind, package of the innermost frame, innermost own function) for one thread's stack."""
    leaf = frame
    filename = leaf.f_code.co_filename
    for path, function in IDLE:
        if filename.endswith(path) and leaf.f_code.co_name == function:
            return "idle", "", ""
    package = _package(filename)
    own = ""
    walker: FrameType | None = frame
    while walker is not None:
        name = walker.f_code.co_filename
        if any(f"/{part}" in name for part in OWN) and "site-packages" not in name:
            own = f"{name.split('/wt-15c/')[-1].split('/main/')[-1]}:{walker.f_code.co_name}"
            break
        walker = walker.f_back
    # psycopg and redis wait for their server in C, below their last Python frame: a sample there is
    # a round trip (sending, waiting or reading), told apart from Python work.
    if package in ("psycopg", "psycopg_pool"):
        return "postgres round trip", package, own
    if package == "redis":
        return "redis round trip", package, own
    return "work", package, own


def _package(filename: str) -> str:
    if "site-packages/" in filename:
        return filename.split("site-packages/")[1].split("/")[0].removesuffix(".py")
    if "/lib/python3" in filename:
        return "stdlib:" + filename.rsplit("/", 1)[-1].removesuffix(".py")
    return filename.split("/wt-15c/")[-1].split("/main/")[-1].split("/")[0]


def sample(stop: threading.Event, skip: set[int], interval: float, counts: dict[str, Counter[str]]) -> None:
    while not stop.is_set():
        for ident, frame in sys._current_frames().items():
            if ident in skip or ident == threading.get_ident():
                continue
            kind, package, own = classify(frame)
            counts["kind"][kind] += 1
            if kind != "idle":
                counts["by kind and own"][f"{kind} ← {own or '(server, SDK)'}"] += 1
            if kind == "work":
                counts["package"][package] += 1
                counts["leaf"][f"{package}:{frame.f_code.co_name} ← {own or '(server, SDK)'}"] += 1
                counts["own"][own or "(no own frame: server, SDK)"] += 1
        time.sleep(interval)


def show(title: str, counter: Counter[str], total: int, top: int) -> None:
    print(f"\n{title}")
    for name, count in counter.most_common(top):
        print(f"  {100 * count / max(total, 1):5.1f} %  {name}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--notes", type=int, default=3000)
    parser.add_argument("--reuse", action="store_true")
    args = parser.parse_args()

    keys, ids = load_run.seed(args.clients, args.notes, args.reuse)
    import uvicorn

    from knownbase.asgi import application

    port = load_run.free_port()
    server = uvicorn.Server(
        uvicorn.Config(application, host="127.0.0.1", port=port, lifespan="on", log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    url = f"http://127.0.0.1:{port}/mcp"
    asyncio.run(load_run.drive(url, keys[:4], ids, 5))  # warm-up
    counts: dict[str, Counter[str]] = {
        "kind": Counter(),
        "package": Counter(),
        "own": Counter(),
        "leaf": Counter(),
        "by kind and own": Counter(),
    }
    stop = threading.Event()
    sampler = threading.Thread(target=sample, args=(stop, {threading.get_ident()}, 0.005, counts))
    sampler.start()
    logs, elapsed = asyncio.run(load_run.drive(url, keys, ids, args.seconds))
    stop.set()
    sampler.join()
    server.should_exit = True
    thread.join(timeout=10)
    import redis

    redis.Redis.from_url(load_run.REDIS_URL).delete(load_run.QUEUE)
    calls = sum(len(samples) for log in logs for samples in log.latencies.values())
    print(
        f"{args.clients} clients, {elapsed:.1f} s, {calls} calls ({calls / elapsed:.1f}/s), one server process"
    )
    work = counts["kind"]["work"]
    show("server thread samples by state", counts["kind"], sum(counts["kind"].values()), 5)
    show("Python work samples by package of the innermost frame", counts["package"], work, 12)
    busy = sum(counts["by kind and own"].values())
    show("busy samples (not idle) by state and innermost own function", counts["by kind and own"], busy, 30)
    show("Python work samples by innermost function", counts["leaf"], work, 15)


if __name__ == "__main__":
    main()
