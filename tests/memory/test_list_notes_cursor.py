"""store.list_notes keyset pages: a cursor continues after the last row, whatever is written between
pages, and only for the question it was issued for."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from accounts.errors import InvalidArgument
from memory import store
from memory.models import Note

T0 = datetime(2020, 11, 1, tzinfo=UTC)  # before now: an edit moves a note to the end


@pytest.fixture
def ids(cast):
    principal = cast.principal(cast.member)
    made = []
    for i in range(7):
        made.append(
            store.create_note(principal, "payments", f"Note {i}", f"Body {i}.", importance=0.5)["note"]["id"]
        )
        # Two notes share each timestamp, so ties must be broken by the keyset too.
        Note.objects.filter(public_id=made[-1]).update(updated_at=T0 + timedelta(days=i // 2))
    return made


def pages(cast, **filters):
    principal = cast.principal(cast.member)
    seen, cursor = [], None
    while True:
        page = store.list_notes(principal, "payments", limit=3, cursor=cursor, **filters)
        seen += [note["title"] for note in page["notes"]]
        cursor = page["next_cursor"]
        if cursor is None:
            return seen


@pytest.mark.parametrize("sort", ["-updated", "updated", "-importance", "importance"])
def test_cursor_pages_cover_the_listing_once(cast, ids, sort):
    whole = [
        n["title"] for n in store.list_notes(cast.principal(cast.member), "payments", sort=sort)["notes"]
    ]
    assert pages(cast, sort=sort) == whole and len(whole) == 7


def test_a_note_written_between_pages_neither_repeats_nor_pushes_one_out(cast, ids):
    principal = cast.principal(cast.member)
    first = store.list_notes(principal, "payments", limit=3, sort="updated")
    # The oldest note is edited: with offsets the next page would repeat one note and skip another.
    store.update_note(principal, ids[0], body="Edited.")
    second = store.list_notes(principal, "payments", limit=3, sort="updated", cursor=first["next_cursor"])
    titles = [n["title"] for n in first["notes"] + second["notes"]]
    assert titles == ["Note 0", "Note 1", "Note 2", "Note 3", "Note 4", "Note 5"]
    assert second["next_offset"] is None and second["total"] == 7


def test_the_last_page_has_no_cursor(cast, ids):
    page = store.list_notes(cast.principal(cast.member), "payments", limit=7)
    assert page["next_cursor"] is None and page["next_offset"] is None


@pytest.mark.parametrize(
    "change",
    [{"sort": "updated"}, {"types": ["fact"]}, {"tag": "db"}, {"include_deleted": True}],
)
def test_a_cursor_cannot_change_the_question(cast, ids, change):
    first = store.list_notes(cast.principal(cast.member), "payments", limit=3)
    with pytest.raises(InvalidArgument, match="different project, filters or sort"):
        store.list_notes(
            cast.principal(cast.member), "payments", limit=3, cursor=first["next_cursor"], **change
        )


def test_a_cursor_of_another_project_or_tampered_is_refused(cast, ids):
    first = store.list_notes(cast.principal(cast.member), "payments", limit=3)
    with pytest.raises(InvalidArgument):
        store.list_notes(cast.principal(cast.member), "website", cursor=first["next_cursor"])
    assert first["next_cursor"] is not None
    tampered = first["next_cursor"][:-2] + ("AA" if not first["next_cursor"].endswith("AA") else "BB")
    for bad in (tampered, "garbage", ""):
        with pytest.raises(InvalidArgument):
            store.list_notes(cast.principal(cast.member), "payments", cursor=bad)


def test_cursor_and_offset_together_are_refused(cast, ids):
    first = store.list_notes(cast.principal(cast.member), "payments", limit=3)
    with pytest.raises(InvalidArgument):
        store.list_notes(cast.principal(cast.member), "payments", cursor=first["next_cursor"], offset=3)


def test_the_cursor_carries_no_primary_key(cast, ids):
    from django.core import signing

    from memory.notes import listing

    cursor = store.list_notes(cast.principal(cast.member), "payments", limit=3)["next_cursor"]
    assert cursor is not None
    payload = signing.loads(cursor, salt=listing.CURSOR_SALT)
    assert set(payload) == {"v", "p", "q", "k", "n"}
    assert (payload["n"], payload["p"], payload["k"]) == (
        ids[4],
        cast.payments.public_id,
        "2020-11-03T00:00:00Z",
    )
