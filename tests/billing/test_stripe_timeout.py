"""A Stripe that accepts connections but never answers: Checkout fails fast with a clear message,
after exactly one retry, and the page that asked never hangs."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest

from billing import stripe_service
from memory import store
from memory.store import StoreError


@pytest.fixture
def silent_stripe(settings) -> Iterator[list[socket.socket]]:
    """A loopback server that accepts every connection and never sends a byte."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                connection, _ = server.accept()
            except TimeoutError:
                continue
            accepted.append(connection)

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    settings.STRIPE_SECRET_KEY = "sk_test_silent"
    settings.STRIPE_API_BASE = f"http://127.0.0.1:{server.getsockname()[1]}"
    settings.STRIPE_TIMEOUT_SECONDS = 1
    settings.STRIPE_NETWORK_RETRIES = 1
    settings.STRIPE_PRICE_IDS = {"pro": "price_pro", "team": "price_team"}
    yield accepted
    stop.set()
    thread.join(timeout=5)
    for connection in accepted:
        connection.close()
    server.close()


def test_the_library_client_carries_the_short_timeout(settings):
    settings.STRIPE_SECRET_KEY = "sk_test_any"
    settings.STRIPE_TIMEOUT_SECONDS = 3
    http = stripe_service._bounded_http_client()
    assert isinstance(http, __import__("stripe").RequestsClient) and http._timeout == (3.0, 3.0)


def test_checkout_fails_after_one_retry_with_a_clear_message(cast, silent_stripe):
    with pytest.raises(StoreError) as failed:
        store.start_checkout(cast.principal(cast.owner), "pro")
    assert "Stripe did not open a checkout; nothing was charged" in failed.value.message
    assert len(silent_stripe) == 2  # the first try and exactly one retry
