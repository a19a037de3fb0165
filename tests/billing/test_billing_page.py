"""The billing page at /billing/: who sees what, and the Checkout and portal hand-offs."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from accounts.models import Membership, Role
from accounts.principal import SESSION_TEAM_KEY
from billing import actions, clock
from billing.models import Plan, Subscription
from memory.models import Project
from tests.billing.fake_stripe import PRICES


def sign_in(client, user, team=None):
    client.force_login(user)
    if team is not None:
        session = client.session
        session[SESSION_TEAM_KEY] = team.pk
        session.save()
    return client


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def stripe_subscription(team, plan_code="pro", status="active", **extra):
    actions.change_plan(team, Plan.objects.get(code=plan_code))
    Subscription.objects.filter(team=team).update(
        status=status,
        stripe_customer_id=f"cus_{team.slug}",
        stripe_subscription_id=f"sub_{team.slug}",
        **extra,
    )


def test_anonymous_visitors_are_sent_to_sign_in(client, cast, settings):
    response = client.get("/billing/")
    assert response.status_code == 302 and response["Location"].startswith(f"{settings.LOGIN_URL}?next=")
    assert client.post("/billing/checkout/", {"plan": "pro"}).status_code == 302


def test_owners_see_plans_usage_and_upgrades(client, cast, fake_stripe):
    page = text(sign_in(client, cast.owner, cast.acme).get("/billing/"))
    assert "Billing · Acme" in page
    for plan in Plan.objects.all():
        assert f'id="plan-{plan.code}"' in page and plan.name in page
    assert 'id="plan-developer"> <h3>Developer <span class="badge">Current</span>' in page
    # Usage against each cap, with a bar carrying the numbers.
    assert re.search(r'id="usage-projects">.*?aria-valuenow="2".*?aria-valuemax="20".*?2 of 20', page)
    assert re.search(r'id="usage-members">.*?3 of 3<.*?At the cap', page)
    assert "Upgrade to Pro" in page and "Upgrade to Team" in page
    assert "Switch to Free" not in page  # the free plan is not sold
    assert 'id="upgrades-off"' not in page and 'id="read-only"' not in page
    assert 'id="manage-billing"' not in page  # no Stripe customer yet


@pytest.mark.parametrize("who", ["member", "viewer"])
def test_others_read_the_plan_and_cannot_buy(client, cast, fake_stripe, who):
    sign_in(client, getattr(cast, who), cast.acme)
    page = text(client.get("/billing/"))
    assert 'id="read-only"' in page and "Developer" in page and "2 of 20" in page
    assert "Upgrade to" not in page and "/billing/checkout/" not in page
    response = client.post("/billing/checkout/", {"plan": "pro"})
    assert response.status_code == 302 and response["Location"] == "/billing/"
    assert fake_stripe.calls == []
    assert "Only the team&#x27;s owners and admins" in text(client.get("/billing/"))


def test_without_stripe_keys_the_plans_show_and_upgrades_are_off(client, cast, settings):
    settings.STRIPE_SECRET_KEY = ""
    sign_in(client, cast.owner, cast.acme)
    page = text(client.get("/billing/"))
    assert 'id="upgrades-off"' in page and "ask this server&#x27;s staff to raise the plan" in page
    assert all(f'id="plan-{plan.code}"' in page for plan in Plan.objects.all())
    assert "Upgrade to" not in page
    assert client.post("/billing/checkout/", {"plan": "pro"})["Location"] == "/billing/"


def test_upgrade_opens_checkout_for_the_team(client, cast, fake_stripe):
    sign_in(client, cast.owner, cast.acme)
    response = client.post("/billing/checkout/", {"plan": "pro"})
    assert response.status_code == 303
    assert response["Location"].startswith("https://checkout.stripe.com/c/pay/cs_test")
    params = fake_stripe.last_call("/v1/checkout/sessions").params
    assert (params["client_reference_id"], params["line_items[0][price]"], params["customer_email"]) == (
        cast.acme.public_id,
        PRICES["pro"],
        cast.owner.email,
    )
    assert client.post("/billing/checkout/", {"plan": "free"})["Location"] == "/billing/"
    assert client.post("/billing/checkout/", {"plan": "nope"})["Location"] == "/billing/"
    assert len(fake_stripe.calls) == 1


def test_a_paying_team_manages_billing_in_the_portal(client, cast, fake_stripe):
    stripe_subscription(cast.acme)
    sign_in(client, cast.owner, cast.acme)
    page = text(client.get("/billing/"))
    assert 'id="manage-billing"' in page and "Upgrade to" not in page
    assert "Switch in Manage billing" in page
    response = client.post("/billing/portal/")
    assert response.status_code == 303 and response["Location"].startswith("https://billing.stripe.com/")
    assert fake_stripe.last_call("/v1/billing_portal/sessions").params["customer"] == "cus_acme"
    # A second Checkout would bill the team twice.
    assert client.post("/billing/checkout/", {"plan": "team"})["Location"] == "/billing/"
    assert not [call for call in fake_stripe.calls if call.path == "/v1/checkout/sessions"]


def test_the_portal_needs_a_stripe_customer_and_a_manager(client, cast, fake_stripe):
    sign_in(client, cast.owner, cast.acme)
    assert client.post("/billing/portal/")["Location"] == "/billing/"
    stripe_subscription(cast.acme)
    sign_in(client, cast.member, cast.acme)
    assert client.post("/billing/portal/")["Location"] == "/billing/"
    assert fake_stripe.calls == []


def test_the_page_is_for_the_team_chosen_in_the_session(client, cast, fake_stripe):
    Membership.objects.create(team=cast.globex, user=cast.owner, role=Role.VIEWER)
    page = text(sign_in(client, cast.owner, cast.globex).get("/billing/"))
    assert "Billing · Globex" in page and 'id="read-only"' in page
    # A team the person is not in is never shown: the outsider choosing acme sees his own team.
    page = text(sign_in(client, cast.outsider, cast.acme).get("/billing/"))
    assert "Billing · Globex" in page and "Acme" not in page


def test_a_failed_payment_shows_its_grace_period_then_the_free_caps(client, cast, fake_stripe):
    grace_end = clock.now() + timedelta(days=7)
    stripe_subscription(cast.acme, status="past_due", grace_period_end=grace_end)
    sign_in(client, cast.owner, cast.acme)
    page = text(client.get("/billing/"))
    assert 'id="subscription-message"' in page and "A payment for Pro failed" in page
    assert f'id="grace-period-end">{grace_end.date().isoformat()}' in page
    assert 'id="plan-in-force">Pro' in page and "past_due (grace period)" in page

    for slug in ("api", "docs"):  # four projects: over the Free plan's three
        Project.objects.create(team=cast.acme, slug=slug, name=slug)
    Subscription.objects.filter(team=cast.acme).update(grace_period_end=clock.now() - timedelta(seconds=1))
    page = text(client.get("/billing/"))
    assert 'id="plan-in-force">Free' in page and 'id="plan-subscribed">Pro' in page
    assert "grace period ended" in page
    assert re.search(r'id="usage-projects">.*?4 of 3<.*?Over the cap: new projects are refused', page)
