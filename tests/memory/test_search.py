from __future__ import annotations

import pytest

from accounts.errors import InvalidArgument, NotFound
from memory import store
from memory.models import Note


def save(cast, title, body, project="payments", who=None, **kwargs):
    return store.create_note(
        cast.principal(who or cast.member), project=project, title=title, body=body, **kwargs
    )["note"]["id"]


@pytest.fixture
def corpus(cast):
    return {
        "webhooks": save(
            cast,
            "Stripe webhooks",
            "Webhook handlers must be idempotent; Stripe retries for three days.",
            tags=["stripe"],
        ),
        "ledger": save(
            cast, "Ledger", "The ledger is append-only. Corrections are new entries.", type="decision"
        ),
        "old": save(cast, "Old webhook design", "Webhooks were polled every minute.", status="superseded"),
        "website": save(cast, "Website webhooks", "The website has no webhooks.", project="website"),
        "foreign": save(cast, "Globex webhooks", "Webhooks at globex.", project="lab", who=cast.outsider),
    }


def search(cast, query, **kwargs):
    return store.search_notes(cast.principal(kwargs.pop("who", cast.member)), query, **kwargs)


def test_fulltext_ranks_title_matches_and_retired_notes_last(cast, corpus):
    result = search(cast, "webhooks", project="payments", semantic=False)
    assert result["search_mode"] == "fulltext"
    ids = [r["id"] for r in result["results"]]
    assert ids[0] == corpus["webhooks"] and ids[-1] == corpus["old"]
    assert corpus["website"] not in ids and corpus["foreign"] not in ids
    row = result["results"][0]
    assert set(row) == {
        "id",
        "project",
        "title",
        "type",
        "status",
        "snippet",
        "body_chars",
        "score",
        "updated_at",
    }
    assert "idempotent" in row["snippet"]


def test_all_visible_projects_when_project_is_absent(cast, corpus):
    ids = {r["id"] for r in search(cast, "webhooks")["results"]}
    assert corpus["website"] in ids and corpus["foreign"] not in ids


def test_websearch_syntax_and_filters(cast, corpus):
    assert [r["id"] for r in search(cast, '"append-only"')["results"]] == [corpus["ledger"]]
    assert [r["id"] for r in search(cast, "webhooks", types=["decision"])["results"]] == []
    assert [r["id"] for r in search(cast, "webhooks", tags=["stripe"])["results"]] == [corpus["webhooks"]]
    statuses = {r["status"] for r in search(cast, "webhooks", statuses=["current"])["results"]}
    assert statuses == {"current"}


def test_substring_is_the_last_resort(cast, corpus):
    result = search(cast, "dempot", semantic=False)  # a word fragment full-text cannot match
    assert result["search_mode"] == "substring"
    assert [r["id"] for r in result["results"]] == [corpus["webhooks"]]


def test_semantic_request_is_always_safe(cast, corpus):
    result = search(cast, "webhooks", semantic=True)
    assert result["search_mode"] in {"fulltext", "vector", "scan"} and result["results"]


def test_include_body_and_limit(cast, corpus):
    result = search(cast, "webhooks", include_body=True, limit=1)
    assert len(result["results"]) == 1 and "body" in result["results"][0]


def test_private_notes_of_others_are_not_found(cast, corpus):
    private = save(cast, "Private webhooks", "my webhooks notes", who=cast.owner, visibility="private")
    assert private not in {r["id"] for r in search(cast, "webhooks")["results"]}
    assert private in {r["id"] for r in search(cast, "webhooks", who=cast.owner)["results"]}


@pytest.mark.parametrize(
    "kwargs", [{"limit": 0}, {"limit": 51}, {"types": ["x"]}, {"semantic": "yes"}, {"tags": "x"}]
)
def test_bad_input(cast, kwargs):
    with pytest.raises(InvalidArgument):
        search(cast, "x", **kwargs)


def test_empty_query_and_foreign_project(cast):
    with pytest.raises(InvalidArgument):
        search(cast, "  ")
    with pytest.raises(NotFound):
        search(cast, "x", project="lab")


def test_deleted_notes_are_not_found(cast, corpus):
    store.delete_note(cast.principal(cast.member), corpus["ledger"])
    assert search(cast, "ledger")["results"] == []
    assert Note.objects.filter(public_id=corpus["ledger"]).exists()
