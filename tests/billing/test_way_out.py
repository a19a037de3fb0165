"""Every cap message says how this team raises the cap on this server: Checkout when Stripe is
configured, otherwise who to ask, never a page that cannot sell."""

from __future__ import annotations

import pytest

from accounts.errors import PlanLimit
from billing import caps
from memory import store
from memory.models import Note


def at_note_cap(cast) -> None:
    cast.plan.max_notes = Note.objects.filter(team=cast.acme, deleted_at=None).count()
    cast.plan.save()


def test_without_stripe_the_message_names_the_staff_route(cast, settings):
    settings.STRIPE_SECRET_KEY = ""
    at_note_cap(cast)
    with pytest.raises(PlanLimit) as refused:
        store.remember(cast.principal(cast.member), "payments", "A note past the cap.")
    message = refused.value.message
    assert "ask this server's staff to raise the plan" in message and "by the team's name or slug" in message
    assert "upgrade at" not in message


def test_with_stripe_the_message_sends_owners_to_checkout(cast, settings):
    settings.STRIPE_SECRET_KEY = "sk_test_configured"
    at_note_cap(cast)
    with pytest.raises(PlanLimit) as refused:
        store.remember(cast.principal(cast.member), "payments", "A note past the cap.")
    assert f"upgrade at {caps.upgrade_url()}" in refused.value.message


def test_the_billing_page_says_who_changes_the_plan(client, cast, settings):
    settings.STRIPE_SECRET_KEY = ""
    client.force_login(cast.owner)
    html = client.get("/billing/").content.decode()
    assert "ask this server&#x27;s staff to raise the plan" in html
