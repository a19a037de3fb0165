"""The tiers hold: tests are marked by the fixtures that start servers and browsers, the helpers that
start them refuse an unmarked test, and every MCP tool keeps a live contract test over HTTP."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from mcp_gateway import tools as _registered  # noqa: F401  (fills TOOLS)
from mcp_gateway.tooling import TOOLS
from tests import tiers

TESTS = Path(__file__).resolve().parent


class Collected:
    """What tiers.mark_by_fixtures reads and writes of a collected test."""

    def __init__(self, *fixtures: str, marked: tuple[str, ...] = ()) -> None:
        self.fixturenames = list(fixtures)
        self.markers = list(marked)

    def get_closest_marker(self, name: str) -> str | None:
        return name if name in self.markers else None

    def add_marker(self, marker: str) -> None:
        self.markers.append(marker)


@pytest.mark.parametrize(
    ("fixtures", "markers"),
    [
        (("cast", "mcp_url", "mcp"), ["live_server"]),
        (("cast", "oauth_site", "site"), ["live_server"]),
        (("browser", "mcp_url", "site_url", "browser_page"), ["browser", "live_server"]),
        (("cast", "local_mcp", "transactional_db"), []),
        (("cast", "client", "db"), []),
    ],
)
def test_tests_are_marked_by_the_fixtures_they_use(fixtures, markers):
    collected = Collected(*fixtures)
    items: list[Any] = [collected]
    tiers.mark_by_fixtures(items)
    assert sorted(collected.markers) == markers


def test_a_marker_already_given_is_not_added_twice():
    collected = Collected("mcp_url", marked=("live_server",))
    items: list[Any] = [collected]
    tiers.mark_by_fixtures(items)
    assert collected.markers == ["live_server"]


@pytest.mark.parametrize("marker", [tiers.LIVE_SERVER, tiers.BROWSER, tiers.SLOW])
def test_starting_a_server_browser_or_process_needs_the_marker(marker):
    with pytest.raises(pytest.fail.Exception, match=f"is not marked {marker}"):
        tiers.require(marker)


@pytest.mark.slow
def test_a_marked_test_may_start_what_its_marker_names():
    tiers.require(tiers.SLOW)


def _tests_taking(module: Path, fixture: str) -> list[str]:
    tree = ast.parse(module.read_text())
    return [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
        and node.name.startswith("test_")
        and fixture in {argument.arg for argument in node.args.args}
    ]


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_every_tool_has_a_live_contract_test_and_in_process_cases(tool):
    module = TESTS / "mcp_gateway" / f"test_{tool}.py"
    live = _tests_taking(module, "mcp")
    assert live, f"{module.name} needs one test through the official client over HTTP (the mcp fixture)"
    assert len(live) <= 2, f"{module.name}: {live} over HTTP; prove other cases in process (local_mcp)"
