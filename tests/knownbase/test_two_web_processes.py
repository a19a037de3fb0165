"""Two web processes (as behind a load balancer) share everything a client may carry from one to the other.

Both are real uvicorn processes on the test database with one Redis and one SECRET_KEY, as in
docker-compose.yml. A request counted by one counts against the other's limit, an Idempotency-Key
used on one replays on the other, a feed cursor sealed by one is continued on the other, and an
export link minted by one is served by the other.
"""

from __future__ import annotations

import os
import random
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx2
import pytest
import redis
from django.db import connection

from memory import store
from memory.models import Note
from tests import web_process
from tests.live_mcp import McpCaller, free_port
from tests.web_process import web_environment

REDIS_URL = "redis://127.0.0.1:6379/13"
pytestmark = [pytest.mark.live_server, pytest.mark.slow]  # two uvicorn processes
ANONYMOUS_LIMIT = 4  # /api requests a minute without a credential, per client address
JOBS = ["invoice", "payout", "refund", "ledger", "dunning"]


@dataclass(frozen=True)
class Pair:
    a: str
    b: str


@pytest.fixture(scope="module")
def web(django_db_setup: None, django_db_blocker: Any) -> Iterator[Pair]:
    redis.Redis.from_url(REDIS_URL).ping()
    ports = free_port(), free_port()
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    env = web_environment(
        KNOWNBASE_DB_NAME=connection.settings_dict["NAME"],
        REDIS_URL=REDIS_URL,
        CELERY_QUEUE=f"knownbase-two-web-{os.getpid()}",
        SECRET_KEY=secrets.token_urlsafe(48),  # one key for both, none from the data folder
        SITE_URL=bases[0],
        DEBUG="false",
        EMBEDDINGS_PROVIDER="none",  # keyword search only: no model to load, no embedding tasks
        API_ANONYMOUS_PER_IP_PER_MINUTE=str(ANONYMOUS_LIMIT),
        TRUSTED_PROXY_COUNT="1",  # as behind the balancer; lets each test be its own client address
        LOG_LEVEL="WARNING",
    )
    if "DATABASE_URL" in os.environ:
        base_url = os.environ["DATABASE_URL"].rsplit("/", 1)[0]
        env["DATABASE_URL"] = f"{base_url}/{connection.settings_dict['NAME']}"
    processes = [web_process.start(env, port) for port in ports]
    try:
        for base, process in zip(bases, processes, strict=True):
            web_process.wait_ready(base, process)
        yield Pair(*bases)
    finally:
        for process in processes:
            web_process.stop(process)
        redis.Redis.from_url(REDIS_URL).delete(env["CELERY_QUEUE"])


@pytest.fixture
def live(web: Pair, transactional_db: None) -> Pair:
    return web


def _own_address() -> str:
    """A client address of this test's own (via the trusted X-Forwarded-For), so no other run's
    counters in the shared Redis count against it."""
    return f"198.18.{random.randint(0, 255)}.{random.randint(1, 254)}"


def _wait_for_a_fresh_window(margin: float = 5.0) -> None:
    # Limits count in fixed minutes: start far enough from a minute's end that all requests share it.
    left = 60 - time.time() % 60
    if left < margin:
        time.sleep(left + 0.1)


def test_a_rate_limit_counts_requests_to_both_processes(live):
    headers = {"X-Forwarded-For": _own_address()}
    _wait_for_a_fresh_window()
    answers = [
        httpx2.get(f"{base}/api/v1/projects", headers=headers, timeout=10).status_code
        for base in [live.a, live.b] * (ANONYMOUS_LIMIT // 2)
    ]
    assert answers == [401] * ANONYMOUS_LIMIT  # each process saw only half of them
    # Past the limit on both, though neither alone has seen more than half.
    assert httpx2.get(f"{live.b}/api/v1/projects", headers=headers, timeout=10).status_code == 429
    refused = httpx2.get(f"{live.a}/api/v1/projects", headers=headers, timeout=10)
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "rate_limited"
    # Another address is untouched.
    other = httpx2.get(f"{live.a}/api/v1/projects", headers={"X-Forwarded-For": "198.19.0.1"}, timeout=10)
    assert other.status_code == 401


def test_an_idempotency_key_used_on_one_process_replays_on_the_other(live, cast):
    key = cast.key(cast.member)
    headers = {"Authorization": f"Bearer {key}", "Idempotency-Key": "two-web-remember-1"}
    body = {"content": "Settlement files are uploaded to the bank at 06:00 UTC."}
    first = httpx2.post(f"{live.a}/api/v1/projects/payments/remember", json=body, headers=headers, timeout=30)
    assert first.status_code == 201, first.text
    again = httpx2.post(f"{live.b}/api/v1/projects/payments/remember", json=body, headers=headers, timeout=30)
    assert (again.status_code, again.json()) == (first.status_code, first.json())
    assert Note.objects.filter(project=cast.payments, body=body["content"]).count() == 1
    # The same key with another request is refused on either process, and writes nothing.
    other = {"content": "Settlement files are uploaded at noon."}
    refused = httpx2.post(
        f"{live.b}/api/v1/projects/payments/remember", json=other, headers=headers, timeout=30
    )
    assert refused.status_code == 400
    assert not Note.objects.filter(project=cast.payments, body=other["content"]).exists()


def test_a_feed_cursor_from_one_process_continues_on_the_other(live, cast):
    member = cast.principal(cast.member)
    statements = [f"Batch {n}: the {word} job runs hourly." for n, word in enumerate(JOBS)]
    written = [store.remember(member, "payments", text, force=True)["note"]["id"] for text in statements]
    headers = {"Authorization": f"Bearer {cast.key(cast.member)}"}
    first = httpx2.get(
        f"{live.a}/api/v1/projects/payments/changes", params={"limit": 2}, headers=headers, timeout=30
    ).json()
    assert first["has_more"] is True
    seen = [change["id"] for change in first["changes"]]
    cursor = first["cursor"]
    for base in [live.b, live.a, live.b]:
        page = httpx2.get(
            f"{base}/api/v1/projects/payments/changes",
            params={"limit": 2, "cursor": cursor},
            headers=headers,
            timeout=30,
        ).json()
        seen += [change["id"] for change in page["changes"]]
        cursor = page["cursor"]
        if not page["has_more"]:
            break
    assert seen == written  # every change once, in order, across both processes
    # A cursor is sealed with the shared key, not just any string: a forged one is refused on both.
    for base in (live.a, live.b):
        forged = httpx2.get(
            f"{base}/api/v1/projects/payments/changes",
            params={"cursor": cursor[:-4] + "AAAA"},
            headers=headers,
            timeout=30,
        )
        assert forged.status_code == 400


def test_an_export_link_minted_by_one_process_is_served_by_the_other(live, cast):
    store.remember(cast.principal(cast.member), "payments", "Chargebacks are answered within 7 days.")
    key = cast.key(cast.member)
    exported = McpCaller(f"{live.a}/mcp").ok(key, "export_project", {"project": "payments"})
    assert exported["url"].startswith(f"{live.a}/exports/")
    on_b = exported["url"].replace(live.a, live.b, 1)
    download = httpx2.get(on_b, timeout=30)
    assert download.status_code == 200, download.text[:300]
    document = download.json()
    assert [note["body"] for note in document["notes"]] == ["Chargebacks are answered within 7 days."]
    # The link is good for this project only: altered, it is refused on either process.
    altered = exported["url"][:-3] + "xyz"
    for base in (live.a, live.b):
        assert httpx2.get(altered.replace(live.a, base, 1), timeout=30).status_code == 404
