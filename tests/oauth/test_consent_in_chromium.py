"""The consent page in a real headless Chromium (the system's, driven by Playwright), as a person
meets it: sent by a client to the authorization URL, logs in, picks a project and read-only access,
allows; the client's loopback callback receives the code. A screenshot of the page is saved under
test-artifacts/."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from accounts.models import OAuthConnection
from tests import tiers
from tests.oauth.flow import LOOPBACK_CALLBACK, PASSWORD, Authorization, Site, registered_client

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
STEP_TIMEOUT_MS = 10_000


def _chromium() -> str:
    tiers.require(tiers.BROWSER)
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (apt-get install chromium)")
        pytest.skip("no chromium on this machine (apt-get install chromium)")
    return executable


def test_consent_page_in_chromium(site: Site, cast, monkeypatch: pytest.MonkeyPatch):
    executable = _chromium()
    from playwright.sync_api import sync_playwright

    authorization = Authorization(site, registered_client(site))
    callbacks: list[str] = []
    # Playwright's sync API runs an event loop on this thread, where Django would refuse the ORM.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "1")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True, args=["--no-sandbox"])
        page = browser.new_page(base_url=site.url)
        page.set_default_timeout(STEP_TIMEOUT_MS)

        def callback(route: Any) -> None:
            # The client's loopback listener: it answers the browser once it has the code.
            callbacks.append(route.request.url)
            route.fulfill(status=200, content_type="text/plain", body="You can close this window.")

        page.route(f"{LOOPBACK_CALLBACK}**", callback)
        page.goto(authorization.url())
        assert urlsplit(page.url).path == "/login/"
        page.get_by_label("Email").fill(cast.member.email)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url("**/oauth/authorize/**")
        heading = page.get_by_role("heading", level=1).inner_text()
        assert heading == "Connect “Test agent” to Knownbase?"
        assert "127.0.0.1:33418" in page.content()
        page.get_by_label("Project").select_option(cast.payments.public_id)
        page.get_by_label("Read only: search and read notes, never change them").check()
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "oauth-consent.png"), full_page=True)
        page.get_by_role("button", name="Allow").click()
        page.wait_for_url(f"{LOOPBACK_CALLBACK}**")
        browser.close()

    params = parse_qs(urlsplit(callbacks[0]).query)
    assert params["state"] == [authorization.state] and params["iss"] == [site.url]
    tokens = authorization.exchange(params["code"][0]).json()
    assert tokens["scope"] == "read"
    connection = OAuthConnection.objects.get(user=cast.member)
    assert (connection.team_id, connection.project_id, connection.read_only) == (
        cast.acme.pk,
        cast.payments.pk,
        True,
    )
    assert (ARTIFACTS / "oauth-consent.png").stat().st_size > 10_000
