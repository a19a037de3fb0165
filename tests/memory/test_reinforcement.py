"""Access reinforcement stays off the read path: reads buffer, one statement flushes."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from memory import store
from memory.models import Note
from memory.notes import reinforcement

WRITE_WORDS = ("INSERT", "UPDATE", "DELETE")


@pytest.fixture
def notes(cast):
    principal = cast.principal(cast.member)
    reinforcement.flush()  # start from an empty buffer
    return [
        store.create_note(principal, "payments", f"Decision {i}", f"We chose option {i}.", type="decision")[
            "note"
        ]["id"]
        for i in range(3)
    ]


def _writes(captured: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in captured.captured_queries if q["sql"].lstrip().upper().startswith(WRITE_WORDS)]


@pytest.mark.parametrize(
    "read",
    [
        lambda cast, ids: store.get_notes(cast.principal(cast.member), ids),
        lambda cast, ids: store.get_context(cast.principal(cast.member), "payments", max_tokens=5000),
        lambda cast, ids: store.search_notes(cast.principal(cast.member), "option", project="payments"),
    ],
    ids=["get_notes", "get_context", "search_notes"],
)
def test_a_read_runs_no_write_statement(cast, notes, read):
    with CaptureQueriesContext(connection) as captured:
        read(cast, notes)
    assert _writes(captured) == []


def test_reads_accumulate_and_one_statement_applies_them(cast, notes):
    principal = cast.principal(cast.member)
    store.get_notes(principal, notes[:2])
    store.get_notes(principal, notes[:1])
    assert set(Note.objects.filter(public_id__in=notes).values_list("access_count", flat=True)) == {0}
    with CaptureQueriesContext(connection) as captured:
        touched = reinforcement.flush()
    assert touched == 2 and len(_writes(captured)) == 1
    counts = dict(Note.objects.filter(public_id__in=notes).values_list("public_id", "access_count"))
    assert counts == {notes[0]: 2, notes[1]: 1, notes[2]: 0}
    assert reinforcement.flush() == 0  # drained: a second flush applies nothing again
