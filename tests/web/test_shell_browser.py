"""Every signed-in page in a real headless Chromium at desktop (1280 px) and phone (390 px) width:
the crawler follows the app's own links from the dashboard and checks that no page scrolls
sideways; the dashboard, a project page, billing and the keys page are photographed into the
folder KNOWNBASE_SCREENSHOTS names (default test-artifacts/shell/), printed by the test."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from memory import store
from tests.conftest import Cast, make_cast
from tests.web.browser import ARTIFACTS, WIDTHS, sideways_overflow, sized_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PHOTOGRAPHED = {"dashboard": "/", "project": "/projects/payments/", "billing": "/billing/", "keys": "/keys/"}
# Links the crawler does not follow: they act (sign out, switch) or leave the signed-in app.
SKIPPED_PREFIXES = ("/logout/", "/admin/", "/static/", "/mcp", "/api/", "/oauth/", "/.well-known/")
MOST_PAGES = 60  # enough for every page kind of the cast's team; the crawl stops there


def _folder() -> Path:
    configured = os.environ.get("KNOWNBASE_SCREENSHOTS", "")
    return Path(configured) if configured else ARTIFACTS / "shell"


@pytest.fixture(params=sorted(WIDTHS))
def phone_or_desktop(request: Any, browser: Any, site_url: str) -> Iterator[tuple[str, Any, Cast]]:
    cast = make_cast()
    principal = cast.principal(cast.owner, project=cast.payments)
    store.remember(
        principal,
        "payments",
        "Every deploy is cut from main.",
        type="decision",
        title="Deploys run from main",
    )
    cast.key(cast.owner)  # the keys page shows its table, which reflows at phone width
    page = sized_page(browser, site_url, request.param)
    page.goto("/login/")
    page.get_by_label("Email").fill(cast.owner.email)
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(lambda url: "/login/" not in url)
    yield request.param, page, cast
    page.context.close()


def _links(page: Any) -> list[str]:
    hrefs: list[str] = page.evaluate("[...document.querySelectorAll('a[href]')].map(a => a.href)")
    here = urlsplit(page.url).netloc
    found = []
    for href in hrefs:
        parts = urlsplit(href)
        if parts.netloc != here or parts.path.startswith(SKIPPED_PREFIXES):
            continue
        found.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    return found


def test_no_signed_in_page_scrolls_sideways_and_the_main_pages_are_photographed(
    phone_or_desktop: tuple[str, Any, Cast],
) -> None:
    width, page, _cast = phone_or_desktop
    folder = _folder()
    folder.mkdir(parents=True, exist_ok=True)
    print(f"screenshots: {folder}")
    for name, path in PHOTOGRAPHED.items():
        page.goto(path)
        page.screenshot(path=str(folder / f"{name}-{width}.png"), full_page=True)
        if width == "phone":
            # The shell at phone width is one row: the menu opens on demand.
            header = page.locator(".site-header").bounding_box()
            assert header is not None and header["height"] <= 64, f"{path}: header {header}"
            assert page.get_by_role("button", name="Sign out").is_visible()
            assert (
                not page.get_by_role("navigation", name="Main")
                .get_by_role("link", name="API keys")
                .is_visible()
            )
            page.get_by_text("Menu", exact=True).click()
            assert (
                page.get_by_role("navigation", name="Main").get_by_role("link", name="API keys").is_visible()
            )
        else:
            assert (
                page.get_by_role("navigation", name="Main").get_by_role("link", name="Billing").is_visible()
            )

    queue: list[str] = ["/"]
    seen: set[str] = set()
    wide: list[str] = []
    while queue and len(seen) < MOST_PAGES:
        path = queue.pop(0)
        if path in seen:
            continue
        seen.add(path)
        response = page.goto(path)
        if (
            response is None
            or response.status != 200
            or "text/html" not in response.headers.get("content-type", "")
        ):
            continue
        overflow = sideways_overflow(page, width)
        if overflow is not None:
            wide.append(f"{path} ({overflow} px)")
        queue.extend(link for link in _links(page) if link not in seen)
    assert len(seen) >= 12, seen  # the crawl reached the app, not just the sign-in page
    assert not wide, f"at {width} width these pages scroll sideways: {wide}"
