"""The one public address: every absolute URL is SITE_URL plus a path, whatever port it names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from accounts.site import MCP_PATH, absolute_url, mcp_url, site_url
from billing.caps import upgrade_url


def test_paths_join_the_site_url_on_its_own_port(settings):
    settings.SITE_URL = "http://127.0.0.1:8100"
    assert site_url() == "http://127.0.0.1:8100"
    assert absolute_url() == "http://127.0.0.1:8100/"
    assert absolute_url("/keys/?new=1") == "http://127.0.0.1:8100/keys/?new=1"
    assert mcp_url() == f"http://127.0.0.1:8100{MCP_PATH}"


def test_a_trailing_slash_on_site_url_gives_no_double_slash(settings):
    settings.SITE_URL = "https://kb.example.test/"
    assert absolute_url("/billing/") == "https://kb.example.test/billing/"
    assert mcp_url() == "https://kb.example.test/mcp"


def test_the_url_follows_the_setting_at_call_time(settings):
    # Nothing caches the address at import: a server (or test) configured later names itself.
    settings.SITE_URL = "http://127.0.0.1:8100"
    first = upgrade_url()
    settings.SITE_URL = "http://127.0.0.1:8200"
    assert (first, upgrade_url()) == ("http://127.0.0.1:8100/billing/", "http://127.0.0.1:8200/billing/")


@pytest.mark.parametrize("path", ["billing/", "", "//evil.example/", "http://evil.example/"])
def test_anything_but_a_rooted_path_is_refused(path):
    # A relative or protocol-relative path would silently name another page or another host.
    with pytest.raises(ValueError, match="starting with one '/'"):
        absolute_url(path)


def test_no_module_builds_its_own_absolute_url():
    root = Path(__file__).resolve().parents[2]
    packages = ("accounts", "api", "billing", "edge", "knownbase", "mcp_gateway", "memory", "web")
    builders = re.compile(r"settings\.SITE_URL|settings\.MCP_URL|build_absolute_uri\(")
    found = [
        f"{path.relative_to(root)}:{number}"
        for package in packages
        for path in sorted((root / package).rglob("*.py"))
        if path.relative_to(root).as_posix() not in ("accounts/site.py", "knownbase/settings.py")
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if builders.search(line)
    ]
    assert found == []
