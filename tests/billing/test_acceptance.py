"""The acceptance story through the real endpoints: the billing page, Checkout (the real stripe library
against the local fake), signed webhooks to /billing/webhook/, and the MCP tools over HTTP.

Acme starts on Free, upgrades to Pro, sees Pro's caps, then a renewal payment fails: Pro holds
through the grace period, after which Free's caps apply and nothing the team wrote is lost."""

from __future__ import annotations

from datetime import timedelta

from accounts.models import AuditEvent
from accounts.principal import SESSION_TEAM_KEY
from billing import actions
from billing.models import Plan
from memory.models import Note, Project
from tests.billing.fake_stripe import MONTH, post_event


def delivered(client, event) -> None:
    response = post_event(client, event)
    assert response.status_code == 200 and response.json()["status"] == "received", response.content


def test_free_to_pro_through_checkout_then_free_caps_after_the_grace_period(
    mcp, cast, client, fake_stripe, billing_clock, settings
):
    actions.change_plan(cast.acme, Plan.objects.get(code="free"))
    key = cast.key(cast.owner)
    usage = mcp.ok(key, "get_usage")
    assert usage["plan"]["code"] == "free" and usage["caps"]["projects"] == 3
    mcp.ok(key, "create_project", {"name": "Mobile"})
    refused = mcp.error(key, "create_project", {"name": "Desktop"})
    assert (refused["code"], refused["cap"], refused["usage"], refused["limit"]) == (
        "plan_limit",
        "projects",
        3,
        3,
    )
    assert refused["upgrade_url"] == f"{settings.SITE_URL}/billing/"

    # Olivia follows the upgrade URL: the billing page sends her to Checkout for her team.
    client.force_login(cast.owner)
    session = client.session
    session[SESSION_TEAM_KEY] = cast.acme.pk
    session.save()
    assert "Upgrade to Pro" in client.get("/billing/").content.decode()
    response = client.post("/billing/checkout/", {"plan": "pro"})
    assert response.status_code == 303
    checkout_id = response["Location"].rsplit("/", 1)[1]

    # She pays; Stripe sends its events (the subscription's own first, as it often does).
    checkout, subscription = fake_stripe.complete_checkout(checkout_id)
    assert checkout["client_reference_id"] == cast.acme.public_id
    delivered(client, fake_stripe.event("customer.subscription.created", subscription))
    delivered(client, fake_stripe.event("checkout.session.completed", checkout))
    delivered(client, fake_stripe.event("invoice.paid", fake_stripe.invoice(subscription["id"], paid=True)))

    usage = mcp.ok(key, "get_usage")
    pro = Plan.objects.get(code="pro")
    assert usage["plan"]["code"] == "pro" and usage["caps"] == pro.caps()
    assert usage["subscription"]["status"] == "active" and usage["subscription"]["source"] == "stripe"
    mcp.ok(key, "create_project", {"name": "Desktop"})
    facts = [
        "Desktop builds ship from the release branch only.",
        "Installers are signed with the team's code-signing certificate.",
        "The auto-updater polls the update feed once a day.",
    ]
    note_ids = [
        mcp.ok(key, "remember", {"project": "desktop", "content": fact})["note"]["id"] for fact in facts
    ]
    assert len(set(note_ids)) == 3
    assert "Manage billing" in client.get("/billing/").content.decode()

    # A month on, the renewal payment fails.
    fake_stripe.now += MONTH
    failed_at = billing_clock.advance(days=30)
    fake_stripe.set_subscription(subscription["id"], status="past_due")
    delivered(
        client,
        fake_stripe.event("invoice.payment_failed", fake_stripe.invoice(subscription["id"], paid=False)),
    )
    delivered(
        client,
        fake_stripe.event("customer.subscription.updated", fake_stripe.subscriptions[subscription["id"]]),
    )
    usage = mcp.ok(key, "get_usage")
    grace = usage["subscription"]
    assert usage["plan"]["code"] == "pro"  # the grace period keeps Pro's caps
    assert grace["status"] == "past_due" and grace["in_grace_period"] is True
    grace_end = failed_at + timedelta(days=settings.BILLING_GRACE_PERIOD_DAYS)
    assert grace["grace_period_end"] == grace_end.isoformat().replace("+00:00", "Z")
    assert "A payment for Pro failed" in grace["message"] and grace_end.date().isoformat() in grace["message"]
    assert "A payment for Pro failed" in client.get("/billing/").content.decode()

    # The grace period ends: Free's caps apply, and nothing is lost.
    notes_before = Note.objects.filter(team=cast.acme, deleted_at=None).count()
    billing_clock.advance(days=settings.BILLING_GRACE_PERIOD_DAYS, seconds=1)
    usage = mcp.ok(key, "get_usage")
    assert usage["plan"]["code"] == "free" and usage["caps"] == Plan.objects.get(code="free").caps()
    assert usage["usage"]["projects"] == 4 and usage["subscription"]["in_grace_period"] is False
    assert "grace period ended" in usage["subscription"]["message"]
    refused = mcp.error(key, "create_project", {"name": "Watch"})
    assert (refused["code"], refused["cap"], refused["usage"], refused["limit"]) == (
        "plan_limit",
        "projects",
        4,
        3,
    )
    assert "Pro subscription is past due" in refused["message"]
    projects = mcp.ok(key, "list_projects")["projects"]
    assert {p["slug"] for p in projects} == {"payments", "website", "mobile", "desktop"}
    kept = mcp.ok(key, "get_notes", {"ids": note_ids})
    assert {n["id"] for n in kept["notes"]} == set(note_ids) and kept["missing"] == []
    # Writes within Free's caps go on: notes are far below Free's 1,000.
    mcp.ok(key, "remember", {"project": "desktop", "content": "Desktop builds are notarised before release."})
    assert Note.objects.filter(team=cast.acme, deleted_at=None).count() == notes_before + 1
    assert Project.objects.filter(team=cast.acme).count() == 4
    page = client.get("/billing/").content.decode()
    assert 'id="plan-in-force">Free' in page and "Over the cap" in page
    plan_changes = AuditEvent.objects.filter(team=cast.acme, action="team.plan_changed").order_by("pk")
    assert [(e.detail["old"], e.detail["new"]) for e in plan_changes][-1] == ("free", "pro")
