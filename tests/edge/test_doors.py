"""The one table of doors: every door counts through edge.rate under the limits it declares, and no
forwarding header a client sends moves it to another address's counters (with no trusted proxy the
connection's own address is the client's, whatever the headers say)."""

from __future__ import annotations

import ast
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx2
import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.test import Client

from edge import doors

LIMIT = 3
# One moment for the whole test, 20 s into a minute window: no count rolls over mid-test.
NOW = 1_800_000_000.0 - 40


@pytest.fixture(autouse=True)
def frozen_counters(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr("edge.rate.time", SimpleNamespace(time=lambda: NOW))
    cache.clear()
    yield
    cache.clear()


def test_every_door_names_settings_that_exist_and_a_window():
    for door in doors.DOORS:
        assert door.limits and door.paths and door.counts
        for declared in door.limits:
            assert isinstance(getattr(django_settings, declared.setting), int), declared.setting
        assert door.window >= 60
    assert len({door.name for door in doors.DOORS}) == len(doors.DOORS)


def test_failures_are_checked_before_and_counted_after(settings):
    settings.LOGIN_FAILURES_PER_ACCOUNT = 2
    settings.LOGIN_FAILURES_PER_ADDRESS = 100
    attempt = doors.LOGIN.attempt(account="Olivia@acme.test ", address="203.0.113.1")
    assert attempt.retry_after() == 0
    attempt.fail()
    attempt.fail()
    assert attempt.retry_after() > 0
    # Same account in another case from another address: the account's counter is the same one.
    assert doors.LOGIN.attempt(account="olivia@ACME.test", address="198.51.100.1").retry_after() > 0
    attempt.forgive("account")
    assert attempt.retry_after() == 0


def test_requests_refuse_the_one_past_the_limit(settings):
    settings.PASSWORD_RESETS_PER_ACCOUNT = 5
    settings.PASSWORD_RESETS_PER_ADDRESS = 2
    settings.MAIL_REQUEST_WINDOW_SECONDS = 3600
    decisions = [
        doors.PASSWORD_RESET.attempt(account=f"a{n}@x.test", address="203.0.113.2").hit() for n in range(3)
    ]
    assert [decision.allowed for decision in decisions] == [True, True, False]
    # The hour's window ends 40 s after NOW.
    assert (decisions[-1].limit, decisions[-1].retry_after) == (2, 40)


def test_a_door_asks_for_every_kind_it_limits():
    with pytest.raises(TypeError):
        doors.LOGIN.attempt(address="203.0.113.3")


def test_a_limit_of_zero_is_no_limit(settings):
    settings.SIGNUPS_PER_ADDRESS = 0
    assert all(doors.SIGNUP.attempt(address="203.0.113.4").hit().allowed for _ in range(50))


# -------------------------------------------------------------- forged forwarding headers, each door

FORGED_HEADERS = ("X-Forwarded-For", "Forwarded", "X-Real-IP", "X-Client-IP", "True-Client-IP")


def forged(n: int) -> dict[str, str]:
    """Every forwarding header a client could invent, naming a new address on each request."""
    address = f"192.0.2.{n % 250 + 1}"
    values = {
        "X-Forwarded-For": f"{address}, 10.0.{n}.1",
        "Forwarded": f"for={address};proto=https",
        "X-Real-IP": address,
        "X-Client-IP": address,
        "True-Client-IP": address,
    }
    return {name: values[name] for name in FORGED_HEADERS}


def _django(headers: dict[str, str]) -> dict[str, Any]:
    return {"HTTP_" + name.upper().replace("-", "_"): value for name, value in headers.items()}


def _post_form(path: str, data: Callable[[int], dict[str, str]]) -> Callable[[Client, int], int]:
    def knock(client: Client, n: int) -> int:
        return int(client.post(path, data(n), **_django(forged(n))).status_code)

    return knock


def _get(path: str) -> Callable[[Client, int], int]:
    def knock(client: Client, n: int) -> int:
        return int(client.get(path, **_django(forged(n))).status_code)

    return knock


def _register(client: Client, n: int) -> int:
    body = json.dumps({"client_name": f"Agent {n}", "redirect_uris": ["http://127.0.0.1:3000/cb"]})
    response = client.post("/oauth/register/", body, content_type="application/json", **_django(forged(n)))
    return int(response.status_code)


def _wrong_password(n: int) -> dict[str, str]:
    return {"username": f"ghost{n}@nowhere.test", "password": "not the password"}


# Each door with an address limit, at each of its paths, knocked on from one connection address
# (the test client's 127.0.0.1) with new forged headers each time. /mcp is knocked on over HTTP below.
KNOCKS: dict[str, dict[str, Callable[[Client, int], int]]] = {
    "login": {
        "/login/": _post_form("/login/", _wrong_password),
        "/admin/login/": _post_form("/admin/login/", _wrong_password),
    },
    "password-reset": {
        "/password/reset/": _post_form("/password/reset/", lambda n: {"email": f"p{n}@x.test"})
    },
    "signup": {"/signup/": _post_form("/signup/", lambda n: {"email": "not an address"})},
    "invitation": {"/teams/join/": _get("/teams/join/not-a-token/")},
    "oauth-registration": {"/oauth/register/": _register},
    "anonymous-rest": {"/api/v1/projects": _get("/api/v1/projects")},
}
ADDRESS_DOORS = [door for door in doors.DOORS if any(limit.kind == "address" for limit in door.limits)]


def _limit_addresses_only(settings: Any, door: doors.Door) -> None:
    for declared in door.limits:
        setattr(settings, declared.setting, LIMIT if declared.kind == "address" else 10_000)


def test_every_door_with_an_address_limit_is_knocked_on_here():
    assert set(KNOCKS) | {"mcp"} == {door.name for door in ADDRESS_DOORS}
    for door in ADDRESS_DOORS:
        if door.name != "mcp":
            assert len(KNOCKS[door.name]) == len(door.paths)


@pytest.mark.parametrize(
    ("door_name", "path"), [(name, path) for name, paths in KNOCKS.items() for path in paths]
)
def test_forged_forwarding_headers_do_not_escape_the_address_limit(client, cast, settings, door_name, path):
    [door] = [door for door in doors.DOORS if door.name == door_name]
    _limit_addresses_only(settings, door)
    settings.TRUSTED_PROXY_COUNT = 0
    knock = KNOCKS[door_name][path]
    answers = [knock(client, n) for n in range(LIMIT + 1)]
    assert 429 not in answers[:LIMIT], answers
    assert answers[LIMIT] == 429, answers


def test_the_login_door_counts_both_paths_together(client, cast, settings):
    _limit_addresses_only(settings, doors.LOGIN)
    statuses = [
        _post_form(path, _wrong_password)(client, n)
        for n, path in enumerate(["/login/", "/admin/login/", "/login/", "/admin/login/"])
    ]
    assert statuses[-1] == 429 and 429 not in statuses[:-1]


def test_forged_forwarding_headers_do_not_escape_the_mcp_limit(mcp, cast, settings):
    _limit_addresses_only(settings, doors.MCP)
    settings.TRUSTED_PROXY_COUNT = 0
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    statuses = []
    for n in range(LIMIT + 1):
        headers = {
            "Accept": "application/json, text/event-stream",
            "Authorization": "Bearer kb_nonsense000000000000000000",
            **forged(n),
        }
        statuses.append(httpx2.post(mcp.url, json=body, headers=headers, timeout=60).status_code)
    assert statuses == [401] * LIMIT + [429]


# ------------------------------------------------------------------------------------- the docs table

ROOT = Path(__file__).resolve().parents[2]


def _defaults() -> dict[str, int]:
    """Each setting's default as knownbase/settings.py declares it (`env_int("NAME", default, …)`),
    whatever the environment of this test run says."""
    tree = ast.parse((ROOT / "knownbase" / "settings.py").read_text())
    found: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "env_int":
            name, default = node.args[0], node.args[1]
            if (
                isinstance(name, ast.Constant)
                and isinstance(default, ast.Constant)
                and isinstance(default.value, int)
            ):
                found[str(name.value)] = int(default.value)
    return found


def test_the_docs_table_is_the_doors_table():
    table = doors.markdown_table(_defaults().__getitem__)
    assert table in (ROOT / "docs" / "safety.md").read_text(), "regenerate docs/safety.md's table:\n" + table
