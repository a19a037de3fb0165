"""store.list_notes: the filtered, paginated listing behind the REST API and the dashboard."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.errors import InvalidArgument, NotFound
from memory import store
from memory.models import Note

T0 = datetime(2026, 11, 1, tzinfo=UTC)


@pytest.fixture
def notes(cast):
    member, owner = cast.principal(cast.member), cast.principal(cast.owner)
    made = {
        "decision": store.create_note(
            member,
            "payments",
            "Use Postgres",
            "We use Postgres.",
            type="decision",
            tags=["db"],
            importance=0.9,
        ),
        "fact": store.create_note(member, "payments", "Port", "The API listens on 8080.", type="fact"),
        "owners": store.create_note(owner, "payments", "Owner's", "Written by the owner.", tags=["db"]),
        "private": store.create_note(member, "payments", "Mine", "Private to Mia.", visibility="private"),
        "gone": store.create_note(member, "payments", "Gone", "Deleted later."),
        "website": store.create_note(member, "website", "Other project", "Not in payments."),
    }
    ids = {name: result["note"]["id"] for name, result in made.items()}
    store.delete_note(member, ids["gone"])
    for offset, name in enumerate(["decision", "fact", "owners", "private", "gone"]):
        Note.objects.filter(public_id=ids[name]).update(updated_at=T0 + timedelta(days=offset))
    return ids


def listed(cast, user=None, **filters):
    return store.list_notes(cast.principal(user or cast.member), "payments", **filters)


def titles(page):
    return [note["title"] for note in page["notes"]]


def test_newest_first_by_default_without_deleted_or_others_private(cast, notes):
    page = listed(cast)
    assert titles(page) == ["Mine", "Owner's", "Port", "Use Postgres"]
    assert page["total"] == 4 and page["next_offset"] is None
    assert "Mine" not in titles(listed(cast, cast.owner))
    assert "Gone" in titles(listed(cast, include_deleted=True))


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        ({"types": ["decision"]}, ["Use Postgres"]),
        ({"tag": "db"}, ["Owner's", "Use Postgres"]),
        ({"author": "Olivia@acme.test"}, ["Owner's"]),
        (
            {"updated_after": "2026-11-01T12:00:00Z", "updated_before": "2026-11-03T12:00:00Z"},
            ["Owner's", "Port"],
        ),
        ({"sort": "-importance"}, ["Use Postgres", "Mine", "Owner's", "Port"]),
        ({"sort": "updated"}, ["Use Postgres", "Port", "Owner's", "Mine"]),
        ({"statuses": ["historical"]}, []),
    ],
)
def test_filters_and_sorts(cast, notes, filters, expected):
    assert titles(listed(cast, **filters)) == expected


def test_pages_with_total_and_next_offset(cast, notes):
    first = listed(cast, limit=3)
    assert len(first["notes"]) == 3 and first["total"] == 4 and first["next_offset"] == 3
    rest = listed(cast, limit=3, offset=first["next_offset"])
    assert titles(first) + titles(rest) == titles(listed(cast)) and rest["next_offset"] is None


def test_query_count_does_not_grow_with_the_page(cast, notes):
    with CaptureQueriesContext(connection) as small:
        listed(cast, limit=1)
    with CaptureQueriesContext(connection) as large:
        listed(cast, limit=50)
    assert len(large.captured_queries) == len(small.captured_queries)


def test_viewer_and_read_only_may_list(cast, notes):
    assert listed(cast, cast.viewer)["total"] == 3
    assert store.list_notes(cast.principal(cast.member, read_only=True), "payments")["total"] == 4


def test_outsider_and_other_project_scope_get_not_found(cast, notes):
    with pytest.raises(NotFound):
        listed(cast, cast.outsider)
    with pytest.raises(NotFound):
        store.list_notes(cast.principal(cast.member, project=cast.website), "payments")


@pytest.mark.parametrize(
    "filters",
    [
        {"sort": "title"},
        {"types": ["memo"]},
        {"limit": 0},
        {"limit": 201},
        {"offset": -1},
        {"updated_after": "yesterday"},
        {"updated_after": "2026-11-01T00:00:00"},  # no zone
        {"tag": "Two Words!"},
    ],
)
def test_bad_filters_are_invalid_argument(cast, notes, filters):
    with pytest.raises(InvalidArgument):
        listed(cast, **filters)
