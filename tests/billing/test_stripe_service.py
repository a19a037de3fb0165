"""Checkout, the portal and subscription retrieval through the real stripe library and the local fake."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import stripe

from billing import stripe_service
from billing.models import Plan
from tests.billing.fake_stripe import MONTH, PRICES, START


def test_checkout_sells_the_plan_as_a_subscription_to_the_teams_opaque_id(cast, fake_stripe, settings):
    pro = Plan.objects.get(code="pro")
    url = stripe_service.checkout_url(cast.acme, pro, email="olivia@acme.test")
    call = fake_stripe.last_call("/v1/checkout/sessions")
    assert call.method == "POST"
    assert url.startswith("https://checkout.stripe.com/c/pay/cs_test")
    params = call.params
    assert params["mode"] == "subscription"
    assert params["client_reference_id"] == cast.acme.public_id
    assert params["line_items[0][price]"] == PRICES["pro"]
    assert params["line_items[0][quantity]"] == "1"
    assert params["metadata[team]"] == params["subscription_data[metadata][team]"] == cast.acme.public_id
    assert params["success_url"] == f"{settings.SITE_URL}/billing/?checkout=success"
    assert params["cancel_url"] == f"{settings.SITE_URL}/billing/?checkout=canceled"
    assert params["customer_email"] == "olivia@acme.test" and "customer" not in params
    # Nothing sent to Stripe names the team by its primary key or slug.
    assert str(cast.acme.pk) not in {params["client_reference_id"], params["metadata[team]"]}
    assert not [key for key, value in params.items() if cast.acme.slug in value and key != "customer_email"]


def test_checkout_reuses_the_teams_stripe_customer(cast, fake_stripe):
    stripe_service.checkout_url(
        cast.acme, Plan.objects.get(code="team"), customer_id="cus_known", email="x@y.z"
    )
    params = fake_stripe.last_call("/v1/checkout/sessions").params
    assert params["customer"] == "cus_known" and "customer_email" not in params
    assert params["line_items[0][price]"] == PRICES["team"]


def test_portal_session_returns_to_the_billing_page(cast, fake_stripe, settings):
    url = stripe_service.portal_url("cus_known")
    params = fake_stripe.last_call("/v1/billing_portal/sessions").params
    assert params == {"customer": "cus_known", "return_url": f"{settings.SITE_URL}/billing/"}
    assert url.startswith("https://billing.stripe.com/p/session/")


def test_retrieve_reads_the_subscription_as_stripe_has_it_now(fake_stripe):
    created = fake_stripe.new_subscription("cus_1", PRICES["pro"], {"team": "t_abc"})
    fake_stripe.set_subscription(created["id"], status="past_due", cancel_at_period_end=True)
    current = stripe_service.retrieve_subscription(created["id"])
    assert fake_stripe.last_call(f"/v1/subscriptions/{created['id']}").method == "GET"
    assert (current.id, current.customer, current.status, current.price_id, current.team_ref) == (
        created["id"],
        "cus_1",
        "past_due",
        PRICES["pro"],
        "t_abc",
    )
    assert current.cancel_at_period_end is True
    assert current.current_period_end == datetime.fromtimestamp(START + MONTH, tz=UTC)


def test_older_api_shapes_parse_too():
    # Before 2025-03-31 the period sat on the subscription; an expanded customer is an object.
    parsed = stripe_service.StripeSubscription.from_object(
        {
            "id": "sub_old",
            "customer": {"id": "cus_old", "object": "customer"},
            "status": "active",
            "current_period_end": START,
            "items": {"data": [{"price": {"id": "price_old"}}]},
        }
    )
    assert (parsed.customer, parsed.price_id, parsed.team_ref) == ("cus_old", "price_old", "")
    assert parsed.current_period_end == datetime.fromtimestamp(START, tz=UTC)


def test_stripe_errors_come_through_the_library(fake_stripe):
    with pytest.raises(stripe.InvalidRequestError, match="No such subscription"):
        stripe_service.retrieve_subscription("sub_missing")


def test_without_a_secret_key_nothing_is_called(cast, settings):
    settings.STRIPE_SECRET_KEY = ""
    assert not stripe_service.configured()
    with pytest.raises(stripe_service.StripeNotConfigured):
        stripe_service.checkout_url(cast.acme, Plan.objects.get(code="pro"))


def test_price_ids_come_from_the_admin_or_the_settings(cast, settings):
    settings.STRIPE_PRICE_IDS = {"pro": "price_from_env", "team": "price_team_env"}
    pro, team, free = (Plan.objects.get(code=code) for code in ("pro", "team", "free"))
    team.stripe_price_id = "price_team_admin"
    team.save()
    assert (pro.price_id, team.price_id, free.price_id) == ("price_from_env", "price_team_admin", "")
    assert Plan.for_price("price_from_env") == pro
    assert Plan.for_price("price_team_admin") == team
    # A settings price shadowed by the admin's value sells nothing.
    assert Plan.for_price("price_team_env") is None
    assert Plan.for_price("price_unknown") is None and Plan.for_price("") is None


def test_teams_have_distinct_opaque_public_ids(cast):
    ids = {cast.acme.public_id, cast.globex.public_id}
    assert len(ids) == 2
    for team in (cast.acme, cast.globex):
        assert team.public_id.startswith("t_") and len(team.public_id) == 18
        assert str(team.pk) != team.public_id[2:]
