"""A real headless Chromium (the system's, driven by Playwright) against the live server.

The server is tests/live_mcp.py's: uvicorn serving the whole ASGI app in a thread of the test
process, on a free loopback port and the test database. Playwright cannot download browsers here,
so it launches the installed chromium; the tests skip only where none is installed outside CI
(.ci/run installs Debian's chromium, and under CI a missing browser fails instead of skipping).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import tiers

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
STEP_TIMEOUT_MS = 30_000  # any one page action or wait (sign-up hashes a password and builds a team while another worker runs); the tests also carry a pytest timeout


def chromium_executable() -> str | None:
    for candidate in (os.environ.get("KNOWNBASE_CHROMIUM", ""), "chromium", "chromium-browser"):
        found = shutil.which(candidate) if candidate else None
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    tiers.require(tiers.BROWSER)
    executable = chromium_executable()
    if executable is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed: .ci/run installs it with apt-get")
        pytest.skip("no chromium on this machine (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop on the test's thread, which Django takes for an
    # async context and refuses ORM calls in (the test's own queries and the database flush after
    # each test); the documented way out for such tools is this variable, for these tests only.
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "1")
        # Root cannot use Chromium's sandbox; the pages are our own, served from loopback.
        launched = playwright.chromium.launch(
            executable_path=executable, headless=True, timeout=30_000, args=["--no-sandbox"]
        )
        yield launched
        launched.close()


@pytest.fixture
def site_url(mcp_url: str, transactional_db: None) -> str:
    """The live server's base URL. SITE_URL stays as configured: the MCP app was built with it as
    its resource URL when the server started, so pages keep naming it, and tests follow links
    and copied configurations by path on the live port."""
    return mcp_url.removesuffix("/mcp")


def _new_page(browser: Any, site_url: str, **options: Any) -> Any:
    context = browser.new_context(base_url=site_url, **options)
    context.set_default_timeout(STEP_TIMEOUT_MS)
    return context.new_page()


@pytest.fixture
def browser_page(browser: Any, site_url: str) -> Iterator[Any]:
    page = _new_page(browser, site_url, permissions=["clipboard-read", "clipboard-write"])
    yield page
    page.context.close()


@pytest.fixture
def no_script_page(browser: Any, site_url: str) -> Iterator[Any]:
    page = _new_page(browser, site_url, java_script_enabled=False)
    yield page
    page.context.close()


# The two widths every layout test uses: a laptop and a phone (viewport width, height).
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}


def sized_page(browser: Any, site_url: str, width_name: str) -> Any:
    """A new tab at one of WIDTHS, as a phone presents itself below 600 px (mobile, touch)."""
    width, height = WIDTHS[width_name]
    context = browser.new_context(
        base_url=site_url,
        viewport={"width": width, "height": height},
        is_mobile=width < 600,
        has_touch=width < 600,
    )
    context.set_default_timeout(STEP_TIMEOUT_MS)
    return context.new_page()


def sideways_overflow(page: Any, width_name: str) -> int | None:
    """How wide the page lays out when that is past the device's width, else None. Measured against
    the device, not innerWidth: a phone browser widens its layout viewport to fit content that
    overflows, so innerWidth grows with the very overflow looked for."""
    wide = int(page.evaluate("document.scrollingElement.scrollWidth"))
    return wide if wide > WIDTHS[width_name][0] else None


def screenshot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
