from __future__ import annotations

from tests.mcp_gateway.state import save, text_matches_structured

CAPS = {
    "projects",
    "notes",
    "revisions_per_note",
    "members",
    "api_keys",
    "semantic_search",
    "requests_per_minute",
    "default_context_budget",
}


def test_reports_plan_caps_and_usage(mcp, cast):
    save(cast, "Stripe", "We use Stripe.")
    save(cast, "Page", "Landing page.", project="website")
    result = mcp.call(cast.key(cast.member), "get_usage")
    assert not result.is_error, result.structured_content
    assert text_matches_structured(result)
    usage = result.structured_content
    assert usage["plan"]["code"] == "developer"
    assert set(usage["caps"]) == CAPS
    assert usage["usage"]["projects"] == 2
    assert usage["usage"]["notes"] == 2
    assert usage["usage"]["members"] == 3
    assert usage["usage"]["api_keys"] >= 1
    assert usage["caps"]["projects"] >= usage["usage"]["projects"]


def test_each_team_sees_its_own_usage(local_mcp, cast):
    save(cast, "Stripe", "We use Stripe.")
    usage = local_mcp.ok(cast.key(cast.outsider), "get_usage")["usage"]
    assert (usage["projects"], usage["notes"], usage["members"]) == (1, 0, 1)


def test_read_only_and_scoped_callers_may_read(local_mcp, cast):
    for key in (
        cast.key(cast.member, read_only=True),
        cast.key(cast.viewer),
        cast.key(cast.member, project=cast.website),
    ):
        assert local_mcp.ok(key, "get_usage")["plan"]["code"] == "developer"


def test_arguments_are_invalid(local_mcp, cast):
    error = local_mcp.error(cast.key(cast.member), "get_usage", {"team": "globex"})
    assert error["code"] == "invalid_argument"


def test_reports_the_subscription_behind_the_caps(local_mcp, cast):
    subscription = local_mcp.ok(cast.key(cast.viewer), "get_usage")["subscription"]
    # The cast's plan was set by staff: active, no Stripe billing, nothing to act on.
    assert subscription["plan"] == "developer" and subscription["status"] == "active"
    assert subscription["source"] == "staff" and subscription["in_grace_period"] is False
    assert "message" not in subscription
