"""The semantic leg's relevance floor (memory/recall/semantic.RELEVANCE_FLOORS): a nearest neighbour below
it is not an answer, so a query nothing answers returns nothing; keyword hits are kept whatever their
cosine, and what is kept keeps the order it had without a floor."""

from __future__ import annotations

import pytest

from memory import store
from memory.models import Note
from memory.recall import semantic
from memory.recall.retrieval import above_floor
from memory.recall.search import Hit

NOTES = [
    ("Vessel positions", "Kestrel drops AIS messages older than 15 minutes before they reach the map."),
    ("Booking holds", "Quayside keeps an unpaid booking for 48 hours, then releases the container slot."),
    ("Invoices", "Billing issues one invoice per shipment, in the customer's currency."),
    ("Build tag", "Release builds are tagged qzx-77 in the registry."),
]


@pytest.fixture
def corpus(cast, django_capture_on_commit_callbacks):
    # Committed callbacks run, so every note has its vector: a nearest neighbour always exists.
    with django_capture_on_commit_callbacks(execute=True):
        ids = [
            store.create_note(cast.principal(cast.member), project="payments", title=t, body=b)["note"]["id"]
            for t, b in NOTES
        ]
    assert Note.objects.filter(embedding__isnull=False).count() == len(NOTES)
    return ids


def search(cast, query, **kwargs):
    return store.search_notes(cast.principal(cast.member), query, project="payments", **kwargs)


def _hits(*pairs: tuple[int, float]) -> list[Hit]:
    return [Hit(Note(pk=pk), relevance) for pk, relevance in pairs]


def test_semantic_only_hits_below_the_floor_are_dropped_and_keyword_hits_kept():
    keyword = _hits((1, 1.0), (2, 0.4))
    vector = _hits((3, 0.8), (2, 0.1), (4, 0.2))
    fused = _hits((3, 1.0), (1, 0.9), (2, 0.5), (4, 0.1))
    kept = above_floor(fused, keyword, vector, 0.3)
    assert [hit.note.pk for hit in kept] == [3, 1, 2]  # 2 is below the floor but a keyword hit
    assert above_floor(fused, keyword, vector, 0.0) == fused


def test_nonsense_finds_nothing_with_a_message_and_the_mode(cast, corpus):
    result = search(cast, "zzzznotfound")
    assert result["results"] == []
    assert result["search_mode"] == "vector"
    assert "Nothing in the notes matches “zzzznotfound”" in result["message"]
    assert "fewer filters" not in result["message"]
    filtered = search(cast, "zzzznotfound", types=["decision"])
    assert filtered["results"] == [] and "fewer filters" in filtered["message"]


def test_an_off_topic_question_finds_nothing(cast, corpus):
    assert search(cast, "what is a good recipe for sourdough bread")["results"] == []


def test_without_a_floor_the_same_query_returns_nearest_neighbours(cast, corpus, monkeypatch):
    monkeypatch.setattr(semantic, "RELEVANCE_FLOORS", {})
    result = search(cast, "zzzznotfound")
    assert len(result["results"]) == len(NOTES) and "message" not in result


def test_a_paraphrase_above_the_floor_is_still_found(cast, corpus):
    result = search(cast, "how long do we hold a reservation that nobody paid for")
    assert result["results"][0]["id"] == corpus[1] and "message" not in result


def test_a_keyword_match_is_kept_however_far_in_meaning(cast, corpus):
    result = search(cast, "qzx-77")
    assert [row["id"] for row in result["results"]] == [corpus[3]]


def test_get_context_keeps_its_nearest_neighbours(cast, corpus):
    # Deliberately no floor there: its pool also ranks the other sections, and with the floor it
    # carried every answer for fewer labelled queries (docs/search.md).
    context = store.get_context(cast.principal(cast.member), "payments", query="zzzznotfound")
    assert context["sections"]["relevant"]
    assert search(cast, "zzzznotfound")["results"] == []
