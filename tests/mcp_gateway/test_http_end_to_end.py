"""The product as a user runs it: migrate, bootstrap a team, serve with uvicorn, connect with the
official MCP client over HTTP. Once on a fresh embedded database (PostgreSQL 18 + pgvector) and once
on the machine's PostgreSQL 15, which has no pgvector."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx2
import psycopg
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.live_mcp import free_port

ROOT = Path(__file__).resolve().parents[2]
# A migrated database of its own and uvicorn in a process, twice.
pytestmark = [pytest.mark.live_server, pytest.mark.slow]
PG15_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"


@dataclass
class RunningProduct:
    url: str
    env: dict[str, str]
    keys: dict[str, str]

    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout


def _bootstrap(product: RunningProduct, name: str, *flags: str, project: str = "core") -> None:
    out = product.manage(
        "bootstrap_team", "--email", "ada@example.test", "--team", "analytical", "--project", project, *flags
    )
    product.keys[name] = json.loads(out)["api_key"]


@pytest.fixture(params=["embedded", "pg15"], scope="module")
def product(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[RunningProduct]:
    port = free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")
    }
    env["SITE_URL"] = f"http://127.0.0.1:{port}"
    db_name = ""
    if request.param == "embedded":
        env["KNOWNBASE_DATA_DIR"] = str(tmp_path_factory.mktemp("fresh") / "data")
    else:
        db_name = f"kb_e2e_{secrets.token_hex(4)}"
        with psycopg.connect(PG15_ADMIN, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{db_name}"')
        env["DATABASE_URL"] = f"postgresql://postgres@127.0.0.1:5432/{db_name}"

    running = RunningProduct(url=f"http://127.0.0.1:{port}/mcp", env=env, keys={})
    server = None
    try:
        running.manage("migrate", "--noinput")
        _bootstrap(running, "team")
        _bootstrap(running, "scoped", "--project-scoped", project="side")
        _bootstrap(running, "read_only", "--read-only")
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "knownbase.asgi:application",
                "--port",
                str(port),
                "--lifespan",
                "on",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx2.get(f"http://127.0.0.1:{port}/healthz").status_code == 200:
                    break
            except httpx2.TransportError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError("uvicorn did not come up")
            time.sleep(0.1)
        yield running
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
        if request.param == "embedded":
            subprocess.run(
                [sys.executable, "manage.py", "stop_embedded_db"],
                cwd=ROOT,
                env=env,
                check=False,
                capture_output=True,
            )
        else:
            with psycopg.connect(PG15_ADMIN, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')


async def _session(product: RunningProduct, key: str, calls: list[tuple[str, Any]]) -> list[Any]:
    client = httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"})
    async with Client(streamable_http_client(product.url, http_client=client)) as session:
        results: list[Any] = [[tool.name for tool in (await session.list_tools()).tools]]
        for name, arguments in calls:
            results.append(await session.call_tool(name, arguments))
        return results


def test_official_client_lists_and_creates_projects(product):
    tools, listed, created, listed_again = anyio.run(
        _session,
        product,
        product.keys["team"],
        [("list_projects", {}), ("create_project", {"name": "Ledger"}), ("list_projects", {})],
    )
    assert {"list_projects", "create_project"} <= set(tools)
    assert [p["slug"] for p in listed.structured_content["projects"]] == ["core", "side"]
    assert created.structured_content["project"]["slug"] == "ledger"
    assert [p["slug"] for p in listed_again.structured_content["projects"]] == ["core", "ledger", "side"]


def test_project_scoped_key_sees_one_project_and_cannot_create(product):
    _, listed, refused = anyio.run(
        _session, product, product.keys["scoped"], [("list_projects", {}), ("create_project", {"name": "X"})]
    )
    assert [p["slug"] for p in listed.structured_content["projects"]] == ["side"]
    assert refused.is_error and refused.structured_content["error"]["code"] == "forbidden"


def test_read_only_key_cannot_write(product):
    _, refused = anyio.run(_session, product, product.keys["read_only"], [("create_project", {"name": "Y"})])
    assert refused.structured_content["error"]["code"] == "forbidden"


@pytest.mark.parametrize("header", [None, "Bearer kb_000000000000wrongwrongwrongwrongwrong", "Basic abc"])
def test_missing_or_bad_credentials_get_401_with_resource_metadata(product, header):
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if header:
        headers["Authorization"] = header
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    response = httpx2.post(product.url, json=body, headers=headers)
    assert response.status_code == 401
    challenge = response.headers["www-authenticate"]
    metadata_url = product.url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp")
    assert f'resource_metadata="{metadata_url}"' in challenge
    metadata = httpx2.get(metadata_url).json()
    assert metadata["resource"] == product.url


def test_embedding_column_matches_the_server(product):
    check = (
        "from django.db import connection; c = connection.cursor(); "
        "c.execute(\"select udt_name from information_schema.columns where table_name='memory_note' "
        "and column_name='embedding'\"); print(c.fetchone()[0])"
    )
    column = product.manage("shell", "-c", check).strip().splitlines()[-1]
    expected = "_float4" if "DATABASE_URL" in product.env else "vector"
    assert column == expected


def test_semantic_search_out_of_the_box(product):
    calls = [
        (
            "remember",
            {
                "project": "core",
                "content": "Quayside keeps an unpaid booking for 48 hours, then frees the slot.",
            },
        ),
        ("remember", {"project": "core", "content": "Kestrel drops AIS messages older than 15 minutes."}),
        (
            "search_notes",
            {
                "project": "core",
                "query": "how long do we hold a reservation nobody paid for",
                "semantic": True,
            },
        ),
    ]
    _, first, _, found = anyio.run(_session, product, product.keys["team"], calls)
    # No pgvector on PostgreSQL 15: the same request is answered by the in-process scan.
    expected = "scan" if "DATABASE_URL" in product.env else "vector"
    assert found.structured_content["search_mode"] == expected
    assert found.structured_content["results"][0]["id"] == first.structured_content["note"]["id"]
