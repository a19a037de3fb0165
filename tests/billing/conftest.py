from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from billing import clock, stripe_service
from tests.billing.fake_stripe import PRICES, START, WEBHOOK_SECRET, FakeStripe, post_event


class Clock:
    """billing's clock, frozen where a test puts it."""

    def __init__(self, start: datetime) -> None:
        self.current = start

    def __call__(self) -> datetime:
        return self.current

    def advance(self, **delta: float) -> datetime:
        self.current += timedelta(**delta)
        return self.current


@pytest.fixture
def billing_clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    frozen = Clock(datetime.fromtimestamp(START, tz=UTC))
    monkeypatch.setattr(clock, "now", frozen)
    return frozen


@pytest.fixture
def fake_stripe(settings: Any, monkeypatch: pytest.MonkeyPatch) -> FakeStripe:
    """Stripe configured (keys, prices, webhook secret) with the real library talking to the fake."""
    settings.STRIPE_SECRET_KEY = "sk_test_knownbase"
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
    settings.STRIPE_PRICE_IDS = dict(PRICES)
    fake = FakeStripe()
    monkeypatch.setattr(stripe_service, "HTTP_CLIENT", fake)
    return fake


@pytest.fixture
def deliver(client: Any, django_capture_on_commit_callbacks: Any) -> Callable[..., Any]:
    """POST an event and run what the endpoint queued after commit (the task, in-process)."""

    def send(event: Mapping[str, Any], **signature: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return post_event(client, event, **signature)

    return send
