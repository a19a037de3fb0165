"""OpenAI-compatible and Voyage providers against a small fake HTTP server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from memory.embeddings import ProviderError
from memory.embeddings.http import OpenAICompatible, Voyage


class FakeEmbeddings:
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.failures: list[int] = []  # statuses to answer before succeeding
        self.delay = 0.0

    def answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        self.requests.append(body)
        if self.failures:
            return self.failures.pop(0), {"error": "try again"}
        dims = body.get("dimensions") or body.get("output_dimension") or 4
        data = [
            {"index": i, "embedding": [float(len(text)), 1.0] + [0.0] * (dims - 2)}
            for i, text in reversed(list(enumerate(body["input"])))  # out of order on purpose
        ]
        return 200, {"data": data}


@pytest.fixture
def fake() -> Iterator[tuple[FakeEmbeddings, str]]:
    state = FakeEmbeddings()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            body["_auth"] = self.headers.get("Authorization")
            body["_path"] = self.path
            if state.delay:
                threading.Event().wait(state.delay)
            status, payload = state.answer(body)
            raw = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state, f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()


def test_openai_batches_orders_and_normalises(fake):
    state, url = fake
    provider = OpenAICompatible(base_url=url, model="m", api_key="k", dimensions=4, batch_size=2, backoff=0)
    vectors = provider.embed(["a", "bbb", "cc", "dddd", "e"])
    assert len(state.requests) == 3
    assert [r["input"] for r in state.requests] == [["a", "bbb"], ["cc", "dddd"], ["e"]]
    assert state.requests[0]["_auth"] == "Bearer k" and state.requests[0]["_path"] == "/v1/embeddings"
    assert state.requests[0]["dimensions"] == 4 and state.requests[0]["model"] == "m"
    # Index order restored: "bbb" (3 chars) is the second vector.
    assert vectors[1][0] / vectors[1][1] == pytest.approx(3.0)
    assert sum(x * x for x in vectors[0]) == pytest.approx(1.0)
    assert provider.model_id == "openai:m:4" and provider.dim == 4


def test_voyage_sends_input_type(fake):
    state, url = fake
    Voyage(base_url=url, model="voyage-3-lite", api_key="k", backoff=0).embed(["q"], kind="query")
    Voyage(base_url=url, model="voyage-3-lite", api_key="k", backoff=0).embed(["d"], kind="document")
    assert [r["input_type"] for r in state.requests] == ["query", "document"]


def test_retries_429_and_5xx_then_succeeds(fake):
    state, url = fake
    state.failures = [429, 503]
    vectors = OpenAICompatible(base_url=url, model="m", api_key="", retries=3, backoff=0).embed(["x"])
    assert len(vectors) == 1 and len(state.requests) == 3


def test_gives_up_after_retries(fake):
    state, url = fake
    state.failures = [500] * 10
    with pytest.raises(ProviderError, match="after 3 attempts"):
        OpenAICompatible(base_url=url, model="m", api_key="", retries=2, backoff=0).embed(["x"])


def test_client_errors_are_not_retried(fake):
    state, url = fake
    state.failures = [401]
    with pytest.raises(ProviderError, match="HTTP 401"):
        OpenAICompatible(base_url=url, model="m", api_key="bad", backoff=0).embed(["x"])
    assert len(state.requests) == 1


def test_slow_server_times_out(fake):
    state, url = fake
    state.delay = 1.0
    with pytest.raises(ProviderError, match="Timeout"):
        OpenAICompatible(base_url=url, model="m", api_key="", timeout=0.2, retries=0).embed(["x"])


def test_nothing_listening_is_a_provider_error():
    with pytest.raises(ProviderError):
        OpenAICompatible(base_url="http://127.0.0.1:1/v1", model="m", api_key="", retries=0).embed(["x"])
