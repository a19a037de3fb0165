"""store.get_cap_standing: the plan in force and every cap used at 80 % or more, in two queries, with
the way out that fits the reader and the server (Stripe or not)."""

from __future__ import annotations

from accounts import actions
from billing import actions as billing_actions
from billing.models import Plan
from memory import store
from memory.models import Project


def _projects(cast, count: int) -> None:
    for n in range(count):
        Project.objects.create(team=cast.acme, slug=f"extra-{n}", name=f"Extra {n}")


def test_nothing_to_warn_about_below_eighty_percent(cast):
    Plan.objects.filter(code="developer").update(max_members=10)
    standing = store.get_cap_standing(cast.principal(cast.owner))
    assert standing["plan"] == "Developer"
    assert standing["warnings"] == []


def test_eighty_percent_warns_and_a_full_cap_comes_first(cast):
    _projects(cast, 14)  # 16 of the Developer plan's 20 projects; its 3 members are all taken
    standing = store.get_cap_standing(cast.principal(cast.member))
    assert [(w["cap"], w["used"], w["limit"], w["full"]) for w in standing["warnings"]] == [
        ("members", 3, 3, True),
        ("projects", 16, 20, False),
    ]
    Project.objects.filter(slug="extra-0").delete()  # 15 of 20: under the warning share
    assert [w["cap"] for w in store.get_cap_standing(cast.principal(cast.member))["warnings"]] == ["members"]


def test_revoked_keys_are_not_counted(cast):
    billing_actions.change_plan(cast.acme, Plan.objects.get(code="free"))
    key, _ = actions.issue_api_key(cast.acme, cast.owner, project_id=None, read_only=False, name="a")
    actions.issue_api_key(cast.acme, cast.owner, project_id=None, read_only=False, name="b")
    warned = {w["cap"] for w in store.get_cap_standing(cast.principal(cast.owner))["warnings"]}
    assert "api_keys" not in warned  # 2 of 3 is 67 %
    actions.issue_api_key(cast.acme, cast.owner, project_id=None, read_only=False, name="c")
    full = {w["cap"]: w for w in store.get_cap_standing(cast.principal(cast.owner))["warnings"]}
    assert full["api_keys"]["full"] and full["api_keys"]["used"] == 3
    store.revoke_api_key(cast.principal(cast.owner), key.display_prefix)
    after = {w["cap"] for w in store.get_cap_standing(cast.principal(cast.owner))["warnings"]}
    assert "api_keys" not in after  # the revoked key no longer counts


def test_the_way_out_names_who_can_change_the_plan(cast, settings):
    settings.STRIPE_SECRET_KEY = ""
    owner = store.get_cap_standing(cast.principal(cast.owner))
    member = store.get_cap_standing(cast.principal(cast.member))
    assert not owner["billing_link"] and not member["billing_link"]
    assert "staff" in owner["way_out"] and "admin" in owner["way_out"]
    assert "Ask an owner" in member["way_out"]

    settings.STRIPE_SECRET_KEY = "sk_test_shell"
    assert store.get_cap_standing(cast.principal(cast.owner))["billing_link"] is True
    member_with_stripe = store.get_cap_standing(cast.principal(cast.member))
    assert member_with_stripe["billing_link"] is False and "owner or admin" in member_with_stripe["way_out"]


def test_two_queries(cast, django_assert_max_num_queries):
    _projects(cast, 14)
    principal = cast.principal(cast.owner)
    with django_assert_max_num_queries(2):
        assert store.get_cap_standing(principal)["warnings"]
