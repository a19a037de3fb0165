"""The embeddings provider failing under a running web process: writes are stored, search answers by
keywords and says so in `search_mode`, and once the provider is back the backfill embeds what was
missed and search by meaning returns.

The provider is an OpenAI-compatible /v1/embeddings served by this test process, which answers 503
while "down"; the web process is a real uvicorn (tests/web_process.py) configured to use it.
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx2
import pytest
from django.core.management import call_command

from memory.embeddings import reset_provider
from memory.models import Note
from memory.recall import semantic
from tests.live_mcp import McpCaller
from tests.web_process import web_processes

pytestmark = [pytest.mark.live_server, pytest.mark.slow]  # a uvicorn process and a provider
DIMENSIONS = 16
MODEL = "fake-embedder"


class FakeProvider(ThreadingHTTPServer):
    up = False
    requests = 0


class _Handler(BaseHTTPRequestHandler):
    server: FakeProvider

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests += 1
        if not self.server.up:
            self.send_response(503)
            self.end_headers()
            return
        data = [{"index": i, "embedding": _vector(text)} for i, text in enumerate(body["input"])]
        payload = json.dumps({"data": data}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def _vector(text: str) -> list[float]:
    # Words hashed into buckets: texts sharing words point the same way, enough for ranking.
    vector = [0.0] * DIMENSIONS
    for word in text.lower().split():
        vector[int(hashlib.sha256(word.encode()).hexdigest(), 16) % DIMENSIONS] += 1.0
    norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    return [x / norm for x in vector]


@dataclass(frozen=True)
class Outage:
    base: str
    provider: FakeProvider


@pytest.fixture(scope="module")
def provider() -> Iterator[FakeProvider]:
    server = FakeProvider(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def _provider_settings(provider: FakeProvider) -> dict[str, str]:
    return {
        "EMBEDDINGS_PROVIDER": "openai",
        "EMBEDDINGS_BASE_URL": f"http://127.0.0.1:{provider.server_address[1]}/v1",
        "EMBEDDINGS_MODEL": MODEL,
        "EMBEDDINGS_DIMENSIONS": str(DIMENSIONS),
        "EMBEDDINGS_TIMEOUT_SECONDS": "5",
    }


@pytest.fixture(scope="module")
def outage(django_db_setup: None, provider: FakeProvider) -> Iterator[Outage]:
    # No REDIS_URL: tasks run in-process, so the embedding is tried (and fails) right after the write.
    with web_processes(1, settings=_provider_settings(provider)) as [base]:
        yield Outage(base, provider)


def test_writes_are_stored_search_says_keyword_and_the_backfill_catches_up(
    outage, cast, transactional_db, settings
):
    outage.provider.up = False
    mcp = McpCaller(f"{outage.base}/mcp")
    key = cast.key(cast.member)
    remembered = mcp.ok(
        key, "remember", {"project": "payments", "content": "Refund webhooks retry five times."}
    )
    assert remembered["status"] == "created"
    saved = mcp.ok(
        key, "save_note", {"project": "payments", "title": "Payouts", "body": "Payouts run at 02:00."}
    )
    written = [remembered["note"]["id"], saved["note"]["id"]]
    assert outage.provider.requests > 0  # the provider was asked, and failed
    notes = Note.objects.filter(public_id__in=written)
    assert notes.count() == 2 and not notes.filter(embedding__isnull=False).exists()

    found = mcp.ok(key, "search_notes", {"query": "refund webhooks retry", "project": "payments"})
    assert found["search_mode"] == "fulltext"
    assert [row["id"] for row in found["results"]][:1] == [written[0]]
    context = mcp.ok(key, "get_context", {"project": "payments", "query": "refund webhooks"})
    assert context["meta"]["search_mode"] == "fulltext"
    rest = httpx2.get(
        f"{outage.base}/api/v1/search",
        params={"query": "payouts"},
        headers={"Authorization": f"Bearer {key}"},
        timeout=30,
    )
    assert rest.status_code == 200 and rest.json()["search_mode"] == "fulltext"

    # The provider is back: the backfill embeds what the outage missed, and search by meaning returns.
    outage.provider.up = True
    configured = _provider_settings(outage.provider)
    settings.EMBEDDINGS_PROVIDER = configured["EMBEDDINGS_PROVIDER"]
    settings.EMBEDDINGS_BASE_URL = configured["EMBEDDINGS_BASE_URL"]
    settings.EMBEDDINGS_MODEL = MODEL
    settings.EMBEDDINGS_DIMENSIONS = DIMENSIONS
    reset_provider()
    try:
        call_command("backfill_embeddings")
    finally:
        reset_provider()
    assert notes.filter(embedding__isnull=False).count() == 2
    # The web process skips a provider that failed for a while (memory.recall.semantic), then
    # probes it again: wait for that, however long the machine takes.
    deadline = time.monotonic() + semantic.PROVIDER_RETRY_SECONDS + 60
    while True:
        again = mcp.ok(key, "search_notes", {"query": "refund webhooks retry", "project": "payments"})
        if again["search_mode"] != "fulltext" or time.monotonic() > deadline:
            break
        time.sleep(1)
    assert again["search_mode"] in {"vector", "scan"}
    assert again["results"][0]["id"] == written[0]
