"""/api/v1 context, changes and search: the store's answers, over HTTP."""

from __future__ import annotations

from memory import store
from tests.mcp_gateway.state import save


def test_context_is_the_stores_with_the_same_arguments(api, cast):
    save(cast, "Amounts in cents", "Never floats for money.", type="constraint")
    save(cast, "Ledger", "Refunds go through the ledger.", type="decision")
    answer = api.get(
        "/projects/payments/context", query="refunds", detail="deep", max_tokens=1500, types=["decision"]
    )
    assert answer.status == 200, answer
    direct = store.get_context(
        cast.principal(cast.member),
        "payments",
        query="refunds",
        detail="deep",
        max_tokens=1500,
        types=["decision"],
    )
    assert answer.json["sections"] == direct["sections"] and answer.json["meta"]["budget"] == 1500
    assert api.get("/projects/payments/context", detail="verbose").status == 400
    assert api.get("/projects/payments/context", max_tokens=10).status == 400


def test_changes_page_with_a_cursor(api, cast):
    ids = [save(cast, f"Note {i}", f"Body {i}") for i in range(3)]
    first = api.get("/projects/payments/changes", limit=2)
    assert first.status == 200 and first.json["has_more"] is True
    rest = api.get("/projects/payments/changes", cursor=first.json["cursor"])
    assert [c["id"] for c in first.json["changes"] + rest.json["changes"]] == ids
    assert rest.json["has_more"] is False
    assert (
        api.get(
            "/projects/payments/changes", since="2026-01-01T00:00:00Z", cursor=first.json["cursor"]
        ).status
        == 400
    )


def test_search_across_visible_projects_and_in_one(api, cast):
    here = save(cast, "Webhooks", "Stripe webhooks retry three times.")
    there = save(cast, "Site webhooks", "The website receives webhooks too.", project="website")
    save(cast, "Lab webhooks", "webhooks in the lab", user=cast.outsider, project="lab")
    everywhere = api.get("/search", query="webhooks")
    assert everywhere.status == 200 and {r["id"] for r in everywhere.json["results"]} == {here, there}
    assert everywhere.json["search_mode"]
    one = api.get("/search", query="webhooks", project="website", include_body="true")
    assert [r["id"] for r in one.json["results"]] == [there] and "body" in one.json["results"][0]
    assert api.get("/search").status == 400
    assert api.get("/search", query="webhooks", limit=51).status == 400


def test_search_that_matches_nothing_is_an_empty_list_with_a_message(
    api, cast, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):  # embedded: nearest neighbours exist
        save(cast, "Webhooks", "Stripe webhooks retry three times.")
    answer = api.get("/search", query="zzzznotfound", project="payments")
    assert answer.status == 200, answer
    assert answer.json["results"] == [] and answer.json["search_mode"] == "vector"
    assert answer.json["message"].startswith("Nothing in the notes matches “zzzznotfound”")
    direct = store.search_notes(cast.principal(cast.member), "zzzznotfound", project="payments")
    assert answer.json == direct
