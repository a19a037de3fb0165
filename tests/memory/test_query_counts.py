"""No N+1 on the hot paths: each main read and every remember outcome costs the same number of SQL
queries whether the project holds a few notes or many (with links, supersessions, disputes and tags),
so the number of notes or links returned never multiplies the round trips.

Each test measures the count at a small size, grows the project, and asserts the same count with
pytest-django's django_assert_num_queries.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from memory import store
from memory.models import Note, NoteLink, NoteStatus, Project
from memory.notes.lifecycle import content_hash

TYPES = ["decision", "constraint", "architecture", "fact", "failed_approach", "status", "task", "note"]
WORDS = ["webhook", "ledger", "retries", "redis", "tokens", "gateway", "billing", "queue", "cache", "deploy"]


def grow(cast: Any, project: Project, count: int, start: int) -> list[Note]:
    """`count` more notes of every type sharing the query words, a third of them linked, some disputed,
    superseded or private: the shapes that would each cost a query if a path fetched them one by one."""
    made = Note.objects.bulk_create(
        [
            Note(
                team=cast.acme,
                project=project,
                author=cast.member,
                type=TYPES[i % len(TYPES)],
                status=NoteStatus.DISPUTED if i % 7 == 3 else NoteStatus.CURRENT,
                visibility="private" if i % 11 == 5 else "team",
                title=f"{WORDS[i % 10]} {WORDS[(i * 3) % 10]} rule {i}",
                body=f"The {WORDS[i % 10]} uses the {WORDS[(i + 1) % 10]} with {WORDS[(i + 2) % 10]} {i}.",
                content_hash=content_hash(f"body {i}"),
                tags=[WORDS[i % 10]],
                importance=0.3 + (i % 5) / 10,
            )
            for i in range(start, start + count)
        ]
    )
    NoteLink.objects.bulk_create(
        [
            NoteLink(from_note=a, to_note=b, kind="contradicts")
            for a, b in zip(made[::3], made[1::3], strict=False)
        ]
        + [
            NoteLink(from_note=a, to_note=b, kind="relates_to")
            for a, b in zip(made[1::3], made[2::3], strict=False)
        ]
    )
    for older, newer in zip(made[2::9], made[3::9], strict=False):
        older.superseded_by = newer  # an unfinished supersession: still current
        older.save(update_fields=["superseded_by"])
    return made


def queries(work: Callable[[], object]) -> int:
    with CaptureQueriesContext(connection) as captured:
        work()
    return len(captured.captured_queries)


def same_count_when_grown(
    cast: Any,
    django_assert_num_queries: Any,
    work: Callable[[list[Note]], object],
    small: int = 8,
    large: int = 80,
) -> list[Note]:
    notes = grow(cast, cast.payments, small, 0)
    work(notes)  # warm-up: per-process caches (plan, catalogue facts) filled once
    expected = queries(lambda: work(notes))
    notes += grow(cast, cast.payments, large, small)
    with django_assert_num_queries(expected):
        work(notes)
    return notes


@pytest.fixture
def principal(cast: Any) -> Any:
    return cast.principal(cast.member)


@pytest.mark.parametrize("detail", ["lean", "balanced", "deep"])
def test_get_context_without_query(cast, principal, django_assert_num_queries, detail):
    def work(_: list[Note]) -> store.results.Context:
        result = store.get_context(principal, "payments", detail=detail)
        assert result["sections"]
        return result

    same_count_when_grown(cast, django_assert_num_queries, work)


def test_get_context_with_query(cast, principal, django_assert_num_queries):
    def work(_: list[Note]) -> None:
        result = store.get_context(principal, "payments", query="webhook ledger retries", detail="deep")
        assert result["sections"]["relevant"]

    same_count_when_grown(cast, django_assert_num_queries, work)


@pytest.mark.parametrize("semantic", [False, True])
def test_search_notes(cast, principal, django_assert_num_queries, semantic):
    def work(_: list[Note]) -> None:
        result = store.search_notes(
            principal, "webhook redis", project="payments", semantic=semantic, limit=50, include_body=True
        )
        assert result["results"]

    same_count_when_grown(cast, django_assert_num_queries, work)


def test_get_changes_since(cast, principal, django_assert_num_queries):
    def work(_: list[Note]) -> None:
        assert store.get_changes_since(principal, "payments", limit=200)["changes"]

    same_count_when_grown(cast, django_assert_num_queries, work)


def test_get_notes(cast, principal, django_assert_num_queries):
    def work(notes: list[Note]) -> None:
        wanted = [n.public_id for n in notes if n.visibility == "team"][:50]
        assert len(store.get_notes(principal, wanted)["notes"]) == len(wanted)

    notes = grow(cast, cast.payments, 8, 0)
    few = [n.public_id for n in notes if n.visibility == "team"]
    store.get_notes(principal, few)
    expected = queries(lambda: store.get_notes(principal, few))
    notes += grow(cast, cast.payments, 80, 8)
    with django_assert_num_queries(expected):
        work(notes)


# remember: one test per outcome. Each statement is new at both sizes (a fresh number), and the same
# outcome is reached against a project grown tenfold with notes sharing its words. (stored first with
# force, then the statement that meets it)
OUTCOMES: dict[str, tuple[str | None, str]] = {
    "created": (None, "The export job writes parquet files nightly, batch {n}."),
    "duplicate": (
        "The webhook uses the redis with retries {n} now.",
        "the webhook uses  the redis with retries {n} now",
    ),
    "updated": (
        "Session tokens expire after {n} minutes of inactivity.",
        "Session tokens expire after {n} minutes of inactivity. Refresh tokens rotate on every use.",
    ),
    "conflict": (
        "We use Kafka topics for invoice event {n}.",
        "We do not use Kafka topics for invoice event {n}.",
    ),
}


@pytest.mark.parametrize("outcome", list(OUTCOMES))
def test_remember_each_outcome(cast, principal, django_assert_num_queries, outcome):
    stored, statement = OUTCOMES[outcome]

    def prepare(n: int) -> str:
        if stored is not None:
            store.remember(principal, "payments", stored.format(n=n), force=True)
        return statement.format(n=n)

    def check(result: dict[str, Any]) -> None:
        assert result["status"] == outcome, result

    grow(cast, cast.payments, 8, 0)
    check(store.remember(principal, "payments", prepare(900)))  # warm-up
    text = prepare(901)
    with CaptureQueriesContext(connection) as captured:
        check(store.remember(principal, "payments", text))
    grow(cast, cast.payments, 80, 8)
    text = prepare(902)
    with django_assert_num_queries(len(captured.captured_queries)):
        check(store.remember(principal, "payments", text))


def test_get_context_with_paths_and_flags(cast, principal, django_assert_num_queries):
    """Bound and flagged notes cost the same few queries however many there are."""

    def work(notes: list[Note]) -> None:
        Note.objects.filter(pk__in=[n.pk for n in notes[::2]]).update(paths=["billing/**"])
        Note.objects.filter(pk__in=[n.pk for n in notes[::4]]).update(
            review_commit="abc1234", review_flagged_at=timezone.now()
        )
        result = store.get_context(principal, "payments", query="webhook", paths=["billing/tax.py"])
        # Every grown note is a conflict of some kind too: the bound ones may all be placed there.
        assert result["sections"]["conflicts"]

    same_count_when_grown(cast, django_assert_num_queries, work)


# remember's created path, statements inside its transaction: 19 before the plan was passed down to the
# cap check, the new note's supersedes were taken from the call and the vector search stopped opening
# a savepoint of its own inside a write; 15 after (docs/performance.md).
REMEMBER_CREATED_STATEMENTS = 15


def test_remember_created_path_statements(cast, principal):
    store.remember(principal, "payments", "Warm-up: the export job writes parquet files, batch 1.")
    with CaptureQueriesContext(connection) as captured:
        result = store.remember(
            principal, "payments", "The export job writes parquet files nightly, batch 7."
        )
    assert result["status"] == "created"
    statements = [query["sql"] for query in captured.captured_queries]
    assert len(statements) <= REMEMBER_CREATED_STATEMENTS, "\n".join(statements)
    assert sum("billing_subscription" in sql for sql in statements) == 1  # the plan is read once
    assert not any("superseded_by_id" in sql and sql.lstrip().startswith("SELECT") for sql in statements[-3:])
