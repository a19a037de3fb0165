from __future__ import annotations

from tests.mcp_gateway.state import save, text_matches_structured

RESULT_FIELDS = {"id", "project", "title", "type", "status", "snippet", "body_chars", "score", "updated_at"}
MODES = {"vector", "scan", "fulltext", "substring"}


def test_finds_notes_with_lean_results(mcp, cast):
    refunds = save(cast, "Refund policy", "Refunds are issued within five days.", tags=["refunds"])
    save(cast, "Currency", "All prices are stored in cents.")
    key = cast.key(cast.member)
    result = mcp.call(key, "search_notes", {"project": "payments", "query": "refunds", "semantic": False})
    assert not result.is_error, result.structured_content
    assert text_matches_structured(result)
    found = result.structured_content
    assert found["search_mode"] in MODES
    assert [r["id"] for r in found["results"]] == [refunds]
    row = found["results"][0]
    assert set(row) == RESULT_FIELDS
    assert (row["project"], row["title"], row["body_chars"]) == ("payments", "Refund policy", 36)

    with_body = mcp.ok(key, "search_notes", {"query": "refunds", "include_body": True, "tags": ["refunds"]})
    assert with_body["results"][0]["body"] == "Refunds are issued within five days."


def test_without_project_searches_every_visible_project(local_mcp, cast):
    payments = save(cast, "Refund policy", "Refunds are issued within five days.")
    website = save(cast, "Refund page", "The website explains refunds.", project="website")
    save(cast, "Lab refunds", "Refunds in the lab.", user=cast.outsider, project="lab")
    everything = local_mcp.ok(cast.key(cast.member), "search_notes", {"query": "refunds"})
    assert {r["id"] for r in everything["results"]} == {payments, website}
    scoped = local_mcp.ok(cast.key(cast.member, project=cast.website), "search_notes", {"query": "refunds"})
    assert [r["id"] for r in scoped["results"]] == [website]


def test_semantic_is_always_safe(local_mcp, cast):
    refunds = save(cast, "Refund policy", "Refunds are issued within five days.")
    found = local_mcp.ok(
        cast.key(cast.member), "search_notes", {"project": "payments", "query": "refunds", "semantic": True}
    )
    assert found["search_mode"] in MODES
    assert refunds in [r["id"] for r in found["results"]]


def test_read_only_callers_may_search(local_mcp, cast):
    refunds = save(cast, "Refund policy", "Refunds are issued within five days.")
    for key in (cast.key(cast.member, read_only=True), cast.key(cast.viewer)):
        found = local_mcp.ok(key, "search_notes", {"project": "payments", "query": "refunds"})
        assert [r["id"] for r in found["results"]] == [refunds]


def test_out_of_scope_is_not_found_or_invisible(local_mcp, cast):
    save(cast, "Refund policy", "Refunds are issued within five days.")
    for key in (cast.key(cast.outsider), cast.key(cast.member, project=cast.website)):
        error = local_mcp.error(key, "search_notes", {"project": "payments", "query": "refunds"})
        assert error["code"] == "not_found"
        assert local_mcp.ok(key, "search_notes", {"query": "refunds"})["results"] == []


def test_bad_input_is_invalid_argument(local_mcp, cast):
    key = cast.key(cast.member)
    for arguments in [
        {},
        {"query": ""},
        {"query": "   "},
        {"query": 5},
        {"query": "x" * 501},
        {"query": "refunds", "project": ""},
        {"query": "refunds", "limit": 0},
        {"query": "refunds", "limit": 51},
        {"query": "refunds", "types": ["rumour"]},
        {"query": "refunds", "statuses": "current"},
        {"query": "refunds", "include_body": "maybe"},
        {"query": "refunds", "sort": "newest"},
    ]:
        result = local_mcp.call(key, "search_notes", arguments)
        assert result.is_error, arguments
        assert result.structured_content["error"]["code"] == "invalid_argument", arguments


def test_searches_by_meaning_unless_told_not_to(local_mcp, cast):
    holds = save(cast, "Booking holds", "An unpaid booking is kept for 48 hours, then the slot is released.")
    save(cast, "Currency", "All prices are stored in cents.")
    key = cast.key(cast.member)
    found = local_mcp.ok(key, "search_notes", {"project": "payments", "query": "reservation nobody paid for"})
    assert found["search_mode"] == "vector"
    assert found["results"][0]["id"] == holds
    keywords = local_mcp.ok(
        key,
        "search_notes",
        {"project": "payments", "query": "reservation nobody paid for", "semantic": False},
    )
    assert keywords["search_mode"] in {"fulltext", "substring"}


def test_nothing_matches_is_an_empty_list_with_a_message(local_mcp, cast, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):  # embedded: nearest neighbours exist
        save(cast, "Refund policy", "Refunds are issued within five days.")
        save(cast, "Currency", "All prices are stored in cents.")
    found = local_mcp.ok(
        cast.key(cast.member), "search_notes", {"project": "payments", "query": "zzzznotfound"}
    )
    assert found["results"] == []
    assert found["search_mode"] == "vector"
    assert found["message"].startswith("Nothing in the notes matches “zzzznotfound”")
    assert "get_context" in found["message"]
    matched = local_mcp.ok(cast.key(cast.member), "search_notes", {"project": "payments", "query": "refunds"})
    assert matched["results"] and "message" not in matched
