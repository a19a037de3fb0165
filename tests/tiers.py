"""The test tiers: which tests start a live server, drive a browser or start extra processes.

`make test-fast` runs the tests that carry none of the three markers (pyproject.toml registers them).
Tests get their markers from the fixtures they use (tests/conftest.py), and the helpers that start a
server, a browser or a worker process check the running test carries its marker, so a new test can't
land in the fast tier by forgetting one.
"""

from __future__ import annotations

import pytest

LIVE_SERVER = "live_server"  # a real HTTP server (uvicorn, in a thread or a process)
BROWSER = "browser"  # a headless Chromium
SLOW = "slow"  # extra servers or processes beyond the test process, or minutes of work

# The fixtures that start a server or a browser, and the markers a test using them takes.
FIXTURE_MARKERS: dict[str, tuple[str, ...]] = {
    "mcp_url": (LIVE_SERVER,),  # tests/live_mcp.py: uvicorn in a thread (mcp, site_url, browser_page)
    "oauth_site": (LIVE_SERVER,),  # tests/oauth/conftest.py: uvicorn with SITE_URL its own address
    "browser": (BROWSER,),  # tests/web/browser.py and tests/billing/test_browser.py
}

running: pytest.Item | None = None  # set by tests/conftest.py around each test


def mark_by_fixtures(items: list[pytest.Item]) -> None:
    for item in items:
        for fixture in getattr(item, "fixturenames", ()):
            for marker in FIXTURE_MARKERS.get(fixture, ()):
                if item.get_closest_marker(marker) is None:
                    item.add_marker(marker)


def require(marker: str) -> None:
    """Fail the running test unless it carries `marker`; called by whatever starts a server, a
    browser or a process."""
    if running is not None and running.get_closest_marker(marker) is None:
        pytest.fail(f"{running.nodeid} starts a {marker.replace('_', ' ')} but is not marked {marker}")
