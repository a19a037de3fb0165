"""The sign-up → verify → key → copy flow in a real headless Chromium, with a screenshot per page
under test-artifacts/; then the copied configuration connects an MCP client to the same server."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest
from django.core import mail

from accounts import site
from accounts.models import ApiKey, User
from tests.live_mcp import McpCaller
from tests.web.browser import screenshot
from tests.web.conftest import link_in

pytestmark = [pytest.mark.browser, pytest.mark.timeout(90)]

EMAIL = "bea@example.test"
PASSWORD = "plum tree harbour"


def test_sign_up_verify_create_a_key_and_connect_with_the_copied_configuration(
    browser_page, site_url, mcp_url
):
    page = browser_page
    page.goto("/")
    screenshot(page, "01-landing")
    page.get_by_role("link", name="Create a free account").click()

    page.get_by_label("Email").fill(EMAIL)
    page.get_by_label("Your name").fill("Bea Browser")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_label("Team name").fill("Bea's lab")
    screenshot(page, "02-signup")
    page.get_by_role("button", name="Sign up").click()

    page.get_by_role("heading", name="Bea's lab").wait_for()
    assert "My first project" in page.content()
    screenshot(page, "03-overview")

    [message] = mail.outbox
    page.goto(link_in(str(message.body)))
    screenshot(page, "04-verify-email")
    page.get_by_role("button", name=f"Confirm {EMAIL}").click()
    page.get_by_text(f"{EMAIL} is confirmed").wait_for()
    assert User.objects.get(email=EMAIL).email_verified

    page.get_by_role("navigation", name="Main").get_by_role("link", name="API keys").click()
    page.get_by_label("Name").fill("browser laptop")
    screenshot(page, "05-keys")
    page.get_by_role("button", name="Create key").click()

    page.get_by_role("heading", name="Your new API key").wait_for()
    screenshot(page, "06-key-created")
    raw = page.locator("#raw-key").input_value()
    assert raw.startswith("kb_") and ApiKey.authenticate(raw) is not None

    copy = page.get_by_role("button", name="Copy the Any HTTP client configuration")
    copy.click()
    page.get_by_role("status").filter(has_text="Copied").wait_for()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.strip() == page.locator("#config-http-text").inner_text().strip()
    config = json.loads(copied)
    assert config == {"url": site.mcp_url(), "headers": {"Authorization": f"Bearer {raw}"}}

    # The agent connects with what was copied, on the live server's port (from another thread:
    # this one carries Playwright's event loop, and the MCP client runs one of its own).
    assert urlsplit(config["url"]).path == urlsplit(mcp_url).path
    agent = McpCaller(mcp_url)
    key = config["headers"]["Authorization"].removeprefix("Bearer ")
    with ThreadPoolExecutor(max_workers=1) as pool:
        projects = pool.submit(agent.ok, key, "list_projects").result(timeout=30)
    assert [p["name"] for p in projects["projects"]] == ["My first project"]

    page.goto("/keys/")
    assert "browser laptop" in page.content()
    screenshot(page, "07-keys-list")
    # Revoking swaps the row in place (htmx); the page does not reload.
    page.evaluate("window.notReloaded = true")
    page.get_by_role("button", name="Revoke browser laptop").click()
    # The page's own <dialog> asks first; nothing is revoked until it is confirmed.
    dialog = page.get_by_role("dialog")
    assert dialog.get_by_text("Revoke the key “browser laptop”?").is_visible()
    assert dialog.get_by_text("Agents using it stop working at once.").is_visible()
    assert ApiKey.authenticate(raw) is not None
    dialog.get_by_role("button", name="Revoke").click()
    page.get_by_role("status").filter(has_text="is revoked").wait_for()
    assert page.evaluate("window.notReloaded") is True
    assert ApiKey.authenticate(raw) is None
    page.goto("/teams/members/")
    screenshot(page, "08-members")


def test_every_step_works_without_javascript(no_script_page, site_url):
    page = no_script_page
    page.goto("/signup/")
    page.get_by_label("Email").fill("nojs@example.test")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.get_by_role("heading", name="nojs's team").wait_for()

    page.goto("/keys/")
    page.get_by_label("Read only").check()
    page.get_by_role("button", name="Create key").click()
    page.get_by_role("heading", name="Your new API key").wait_for()
    # Without script the copy buttons stay hidden and the text is there to select.
    assert not page.get_by_role("button", name="Copy key").is_visible()
    assert (
        "claude mcp add --transport http knownbase" in page.locator("#config-claude-code-text").inner_text()
    )
    screenshot(page, "09-key-created-no-javascript")

    page.get_by_role("button", name="Sign out").click()
    page.goto("/login/?next=/keys/")
    page.get_by_label("Email").fill("nojs@example.test")
    page.get_by_label("Password").fill(PASSWORD)
    screenshot(page, "10-login")
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("heading", name="API keys").wait_for()
    assert page.url == f"{site_url}/keys/"
