"""The billing page in a real headless Chromium (Debian's, driven by Playwright) against the live
server: the owner sees plans and usage, upgrades, and sees the new plan once Stripe's webhook lands.

A small self-contained browser fixture for now; the web app's shared one can replace it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, Page, sync_playwright

from accounts.principal import SESSION_TEAM_KEY
from tests.billing.fake_stripe import post_event

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")


@pytest.fixture(autouse=True)
def _orm_beside_playwright(monkeypatch: pytest.MonkeyPatch) -> None:
    # Playwright's sync API keeps an event loop in this thread, so Django takes every ORM call here
    # (the cast, the database flush) for one made from async code. Nothing async runs Django here.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def browser(_orm_beside_playwright: None) -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, timeout=15_000)
        yield launched
        launched.close()


@pytest.fixture
def site(mcp_url: str, transactional_db: None) -> str:
    return mcp_url.removesuffix("/mcp")


def signed_in_page(browser: Browser, site: str, user: Any, team: Any) -> Page:
    """A browser tab carrying a real session cookie of `user` acting in `team`."""
    client = Client()
    client.force_login(user)
    session = client.session
    session[SESSION_TEAM_KEY] = team.pk
    session.save()
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session.session_key or "", "url": site}]
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


@pytest.mark.timeout(30, func_only=True)
def test_the_owner_upgrades_from_the_billing_page(browser, site, cast, fake_stripe):
    ARTIFACTS.mkdir(exist_ok=True)
    # Checkout "completes" at once and sends the buyer back to the success URL.
    fake_stripe.checkout_page = f"{site}/billing/?checkout=success&session="
    page = signed_in_page(browser, site, cast.owner, cast.acme)
    page.goto(f"{site}/billing/")
    assert page.title() == "Billing · Knownbase"
    assert page.locator(".plan").count() == 4
    assert page.locator("#plan-developer .badge").inner_text() == "Current"
    projects_bar = page.get_by_role("progressbar", name="Projects")
    assert projects_bar.get_attribute("aria-valuenow") == "2"
    assert projects_bar.get_attribute("aria-valuemax") == "20"
    assert page.locator("#usage-members .usage-bar.full").is_visible()
    page.screenshot(path=str(ARTIFACTS / "billing-developer.png"), full_page=True)

    page.get_by_role("button", name="Upgrade to Pro").click()
    page.wait_for_url("**/billing/?checkout=success*")
    assert page.locator("#checkout-success").is_visible()
    params = fake_stripe.last_call("/v1/checkout/sessions").params
    assert params["client_reference_id"] == cast.acme.public_id and params["mode"] == "subscription"

    session_id = page.url.rsplit("session=", 1)[1]
    checkout, _ = fake_stripe.complete_checkout(session_id)
    assert post_event(Client(), fake_stripe.event("checkout.session.completed", checkout)).status_code == 200
    page.reload()
    assert page.locator("#plan-pro .badge").inner_text() == "Current"
    assert page.locator("#subscription-status").inner_text() == "active"
    assert page.get_by_role("button", name="Manage billing", exact=True).is_visible()
    page.screenshot(path=str(ARTIFACTS / "billing-pro.png"), full_page=True)


@pytest.mark.timeout(30, func_only=True)
def test_a_viewer_reads_the_plan_without_buttons(browser, site, cast, fake_stripe):
    page = signed_in_page(browser, site, cast.viewer, cast.acme)
    page.goto(f"{site}/billing/")
    assert page.locator("#read-only").is_visible()
    assert page.locator("main").get_by_role("button").count() == 0  # the header has sign-out and the team switcher
    assert fake_stripe.calls == []
