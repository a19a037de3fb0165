"""One heavy call never blocks the server: screening runs in linear time and off the event loop."""

from __future__ import annotations

import time
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

# Near-misses of several screening families, repeated up to the body limit: the inputs that used to
# take seconds to tens of seconds in backtracking patterns.
ADVERSARIAL = [
    ("a." * 25_000)[:50_000],
    ("-eyJ" * 12_500)[:50_000],
    ("a://b:c@" * 6_250)[:50_000],
]


def test_healthz_answers_while_heavy_calls_are_in_flight(
    mcp_url: str, cast: Any, transactional_db: None
) -> None:
    key = cast.key(cast.member)
    base = mcp_url.rsplit("/mcp", 1)[0]
    finished: dict[str, float] = {}

    async def heavy(index: int, text: str) -> None:
        headers = {"Authorization": f"Bearer {key}"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=120) as http,
            Client(streamable_http_client(mcp_url, http_client=http)) as client,
        ):
            result = await client.call_tool("remember", {"project": "payments", "content": text})
            assert result.structured_content is not None
        finished[f"heavy{index}"] = time.monotonic()

    async def probe() -> None:
        await anyio.sleep(0.2)  # the heavy calls are in flight by now
        async with httpx2.AsyncClient(timeout=120) as http:
            response = await http.get(f"{base}/healthz")
        assert response.status_code == 200
        finished["healthz"] = time.monotonic()

    async def run() -> None:
        async with anyio.create_task_group() as group:
            for index, text in enumerate(ADVERSARIAL * 4):
                group.start_soon(heavy, index, text)
            group.start_soon(probe)

    anyio.run(run)
    # Ordering, not wall time: the probe was answered before the last heavy call finished.
    assert finished["healthz"] < max(v for k, v in finished.items() if k.startswith("heavy"))
