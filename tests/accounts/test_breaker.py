"""The circuit breaker: open after a failure, one probe per retry period, closed by a success, and
one warning per outage however many calls meet it."""

from __future__ import annotations

import logging

from accounts.breaker import CircuitBreaker


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _breaker(clock: Clock) -> CircuitBreaker:
    return CircuitBreaker("Thing", lambda: 10.0, clock=clock)


def test_closed_lets_every_call_through():
    breaker = _breaker(Clock())
    assert all(breaker.allow() for _ in range(5))
    assert not breaker.is_open


def test_a_failure_opens_it_until_the_retry_period_has_passed():
    clock = Clock()
    breaker = _breaker(clock)
    breaker.failed(ConnectionError("refused"))
    assert breaker.is_open
    assert not breaker.allow()
    clock.now += 9.9
    assert not breaker.allow()
    clock.now += 0.2
    assert breaker.allow()  # the probe
    assert not breaker.allow()  # the others keep degrading while it is out


def test_a_failed_probe_keeps_it_open_and_a_good_one_closes_it():
    clock = Clock()
    breaker = _breaker(clock)
    breaker.failed(ConnectionError("refused"))
    clock.now += 10
    assert breaker.allow()
    breaker.failed(ConnectionError("still refused"))
    assert not breaker.allow()
    clock.now += 10
    assert breaker.allow()
    breaker.succeeded()
    assert not breaker.is_open
    assert all(breaker.allow() for _ in range(3))


def test_one_warning_per_outage(caplog):
    clock = Clock()
    breaker = _breaker(clock)
    with caplog.at_level(logging.WARNING, logger="accounts.breaker"):
        for _ in range(5):
            breaker.failed(ConnectionError("refused"))
            clock.now += 11
        breaker.succeeded()
        breaker.succeeded()
        breaker.failed(TimeoutError("slow"))
    messages = [record.getMessage() for record in caplog.records]
    assert len(messages) == 3
    assert messages[0].startswith("Thing unreachable (ConnectionError: refused)")
    assert messages[1] == "Thing reachable again; degraded mode over"
    assert messages[2].startswith("Thing unreachable (TimeoutError: slow)")
