"""Each search mode and each fallback: vector → scan → full-text → substring."""

from __future__ import annotations

import time

import pytest
from django.db import connection

from memory import store
from memory.embeddings import ProviderError, reset_provider
from memory.recall import semantic
from memory.recall.semantic import index_name

NOTES = [
    ("Vessel positions", "Kestrel drops AIS messages older than 15 minutes before they reach the map."),
    ("Booking holds", "Quayside keeps an unpaid booking for 48 hours, then releases the container slot."),
    ("Invoices", "Billing issues one invoice per shipment, in the customer's currency."),
]


@pytest.fixture
def corpus(cast, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return [
            store.create_note(cast.principal(cast.member), project="payments", title=t, body=b)["note"]["id"]
            for t, b in NOTES
        ]


def search(cast, query, **kwargs):
    return store.search_notes(cast.principal(cast.member), query, project="payments", **kwargs)


def test_vector_mode_finds_a_paraphrase(cast, corpus):
    result = search(cast, "how long do we hold a reservation that nobody paid for", semantic=True)
    assert result["search_mode"] == "vector"
    assert result["results"][0]["id"] == corpus[1]


def test_hybrid_is_the_default(cast, corpus):
    result = search(cast, "how long do we hold a reservation that nobody paid for")
    assert result["search_mode"] == "vector"
    assert result["results"][0]["id"] == corpus[1]
    assert search(cast, "reservation", semantic=False)["search_mode"] in {"fulltext", "substring"}


def test_a_fragment_only_substring_matches_reaches_the_hybrid_ranking(cast, corpus):
    result = search(cast, "uayside")
    assert result["search_mode"] == "vector"
    assert corpus[1] in [row["id"] for row in result["results"]]


def test_scan_mode_without_the_index(cast, corpus):
    with connection.cursor() as cursor:
        cursor.execute(f"DROP INDEX {index_name('all-MiniLM-L6-v2-int8')}")
    semantic._known_indexes.clear()  # the app never drops indexes, so it caches that they exist
    result = search(cast, "how long do we hold a reservation that nobody paid for", semantic=True)
    assert result["search_mode"] == "scan"
    assert result["results"][0]["id"] == corpus[1]


def test_failing_provider_answers_with_fulltext(cast, corpus, settings):
    reset_provider()
    settings.EMBEDDINGS_PROVIDER = "openai"
    settings.EMBEDDINGS_BASE_URL = "http://127.0.0.1:1/v1"
    settings.EMBEDDINGS_MODEL = "m"
    settings.EMBEDDINGS_TIMEOUT = 0.5
    try:
        result = search(cast, "invoice currency", semantic=True)
    finally:
        reset_provider()
    assert result["search_mode"] == "fulltext"
    assert [r["id"] for r in result["results"]] == [corpus[2]]


def test_no_provider_answers_with_fulltext(cast, corpus, settings):
    reset_provider()
    settings.EMBEDDINGS_PROVIDER = "none"
    try:
        assert search(cast, "invoice", semantic=True)["search_mode"] == "fulltext"
    finally:
        reset_provider()


def test_plan_without_semantic_search_answers_with_keywords(cast, corpus):
    plan = cast.plan
    plan.semantic_search = False
    plan.save()
    assert search(cast, "invoice", semantic=True)["search_mode"] == "fulltext"


def test_substring_is_the_last_resort(cast, corpus):
    result = search(cast, "uayside", semantic=False)
    assert result["search_mode"] == "substring" and [r["id"] for r in result["results"]] == [corpus[1]]


def test_vector_search_never_crosses_scope(cast, corpus, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        foreign = store.create_note(
            cast.principal(cast.outsider),
            project="lab",
            title="Holds",
            body="Unpaid reservations are held 48 hours.",
        )["note"]["id"]
        private = store.create_note(
            cast.principal(cast.owner),
            project="payments",
            title="Holds",
            body="Unpaid reservations are held 48 hours.",
            visibility="private",
        )["note"]["id"]
    ids = {r["id"] for r in search(cast, "unpaid reservations held", semantic=True)["results"]}
    assert foreign not in ids and private not in ids and corpus[1] in ids


def test_get_context_relevant_uses_the_semantic_path(cast, corpus):
    result = store.get_context(cast.principal(cast.member), "payments", query="ship location reports too old")
    assert result["meta"]["search_mode"] == "vector"
    assert result["sections"]["relevant"][0]["id"] == corpus[0]


def test_remember_flags_a_close_meaning_for_review(cast, corpus, django_capture_on_commit_callbacks):
    result = store.remember(
        cast.principal(cast.member),
        "payments",
        "Kestrel discards AIS messages that are more than 15 minutes old before they reach the map.",
    )
    assert result["status"] in {"created", "conflict", "updated", "duplicate"}
    if result["status"] == "created":
        assert result["review_required"] and result["similar"][0]["id"] == corpus[0]
    else:
        assert result["note"]["id"] == corpus[0]


class FlakyProvider:
    model_id = "flaky-model"
    dim = 3

    def __init__(self) -> None:
        self.calls = 0
        self.down = True

    def embed(self, texts, kind="document"):
        self.calls += 1
        if self.down:
            raise ProviderError("HTTP 503")
        return [[1.0, 0.0, 0.0] for _ in texts]


def test_a_failing_provider_is_not_asked_again_until_its_retry_period(cast, corpus, monkeypatch, caplog):
    flaky = FlakyProvider()
    monkeypatch.setattr(semantic, "get_provider", lambda: flaky)
    modes = [search(cast, f"invoice currency {n}", semantic=True)["search_mode"] for n in range(3)]
    assert modes == ["fulltext"] * 3
    assert flaky.calls == 1  # then keyword search straight away, no provider wait per call
    assert [r.getMessage() for r in caplog.records if "flaky-model" in r.getMessage()] == [
        "Embeddings provider flaky-model unreachable (ProviderError: HTTP 503); running degraded, "
        "trying again every 30 s"
    ]
    # Once the period is over one call probes; the provider answers, and meaning is searched again.
    flaky.down = False
    breaker = semantic.provider_breaker("flaky-model")
    monkeypatch.setattr(breaker, "clock", lambda: time.monotonic() + semantic.PROVIDER_RETRY_SECONDS + 1)
    search(cast, "invoice currency probe", semantic=True)
    assert flaky.calls == 2
    assert not semantic.provider_breaker("flaky-model").is_open
