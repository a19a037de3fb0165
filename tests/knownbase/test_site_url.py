"""`make run PORT=…` names one server, the one it starts: every URL printed, rendered, mailed or
published names that port.

make itself is asked what SITE_URL it gives its recipes. The server is then started with the steps of
`make run` (migrate, collectstatic, backfill_embeddings, ensure_demo, then uvicorn) in that
environment, on a private embedded database and a free port other than 8000. `make run` itself is not
run: its `install` prerequisite reinstalls the virtualenv whenever pyproject.toml looks newer than it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx2
import pytest

from knownbase import embedded_db
from tests import tiers
from tests.live_mcp import free_port

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.live_server, pytest.mark.slow, pytest.mark.timeout(900)]  # a fresh database
# What the test process carries that `make run` on a developer's machine would not.
NOT_INHERITED = (
    "SITE_URL", "HOST", "PORT", "DATABASE_URL", "REDIS_URL", "KNOWNBASE_DB_NAME", "KNOWNBASE_DATA_DIR",
    "KNOWNBASE_ENV", "DEBUG", "SECRET_KEY", "EMAIL_URL", "STATIC_ROOT", "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS", "DJANGO_SETTINGS_MODULE", "MAKEFLAGS", "MFLAGS", "MAKELEVEL",
)  # fmt: skip
LOCAL_URL = re.compile(r"https?://(?:127\.0\.0\.1|localhost|\[::1\])(?::\d+)?[^\s\"'<>)]*")
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
PASSWORD = "plum tree harbour"


def _environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in NOT_INHERITED}
    return {**env, **extra}


def make_site_url(env: dict[str, str], **variables: str) -> str:
    """The SITE_URL `make` exports to its recipes (run/serve) for these command-line variables."""
    probe = subprocess.run(
        ["make", "--no-print-directory", "-s", "--eval", 'site-url-probe: ; @echo "$$SITE_URL"',
         "site-url-probe", *(f"{name}={value}" for name, value in variables.items())],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert probe.returncode == 0, probe.stderr
    return probe.stdout.strip()


@pytest.mark.parametrize(
    ("variables", "environment", "expected"),
    [
        ({"PORT": "8123"}, {}, "http://127.0.0.1:8123"),
        ({}, {}, "http://127.0.0.1:8000"),
        ({"HOST": "localhost", "PORT": "8124"}, {}, "http://localhost:8124"),
        # A wildcard bind address is nothing a browser can open: the links name loopback.
        ({"HOST": "0.0.0.0", "PORT": "8125"}, {}, "http://127.0.0.1:8125"),  # noqa: S104
        ({"HOST": "::1", "PORT": "8126"}, {}, "http://[::1]:8126"),
        # A public address set by the operator wins over the port the process listens on.
        ({"PORT": "8127"}, {"SITE_URL": "https://kb.example.test"}, "https://kb.example.test"),
        ({"PORT": "8128", "SITE_URL": "https://kb.example.test"}, {}, "https://kb.example.test"),
    ],
)
def test_make_derives_site_url_from_host_and_port_unless_it_is_set(variables, environment, expected):
    assert make_site_url(_environment(**environment), **variables) == expected


@dataclass(frozen=True)
class Started:
    base: str
    banner: str
    log: Path  # the web process's output: the console mail backend writes there


def _wait_ready(base: str, server: subprocess.Popen[bytes], timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the web process exited with {server.returncode}")
        try:
            if httpx2.get(f"{base}/readyz", timeout=5).status_code == 200:
                return
        except httpx2.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the web process at {base} did not become ready")


def _stop_database(data: Path) -> None:
    pgdata = data / "pgdata"
    if not (pgdata / "postmaster.pid").exists():
        return
    # A process killed before its exit handlers ran stays listed as holding the server, and the
    # package then stops it for nobody: only live holders count.
    handles = pgdata / ".handle_pids.json"
    if handles.exists():
        live = [pid for pid in json.loads(handles.read_text()) if _running(pid)]
        handles.write_text(json.dumps(live))
    embedded_db.stop(str(data))


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Started]:
    tiers.require(tiers.LIVE_SERVER)
    port = free_port()
    while port == 8000:  # the default would hide a URL built from it
        port = free_port()
    folder = tmp_path_factory.mktemp("site")
    data = folder / "data"
    base = make_site_url(_environment(), PORT=str(port))
    env = _environment(
        SITE_URL=base,
        KNOWNBASE_DATA_DIR=str(data),
        EMBEDDINGS_PROVIDER="none",  # no model to load: the URLs are the subject here
        PYTHONUNBUFFERED="1",
    )
    server: subprocess.Popen[bytes] | None = None
    try:
        banner = ""
        for step in (
            ["migrate", "--noinput"],
            ["collectstatic", "--noinput", "--verbosity", "0"],
            ["backfill_embeddings"],
            ["ensure_demo"],
        ):
            done = subprocess.run(
                [sys.executable, "manage.py", *step],
                cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False,
            )  # fmt: skip
            assert done.returncode == 0, f"{step[0]}: {done.stderr[-3000:]}"
            banner = done.stdout
        log = folder / "server.log"
        with log.open("wb") as out:
            server = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "knownbase.asgi:application",
                 "--host", "127.0.0.1", "--port", str(port), "--lifespan", "on"],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        _wait_ready(base, server)
        yield Started(base, banner, log)
    finally:
        if server is not None and server.poll() is None:
            os.killpg(server.pid, signal.SIGINT)  # as Ctrl-C stops `make run`
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=30)
        _stop_database(data)
    assert not (data / "pgdata" / "postmaster.pid").exists(), "the embedded server is still running"


def _local_urls(text: str) -> set[str]:
    return set(LOCAL_URL.findall(text))


def _only_on(base: str, text: str) -> None:
    """Every local URL in `text` is on `base` (no :8000 left behind, no other port)."""
    elsewhere = {url for url in _local_urls(text) if url != base and not url.startswith(f"{base}/")}
    assert elsewhere == set()


def _post_form(client: httpx2.Client, page: str, action: str, fields: dict[str, str]) -> httpx2.Response:
    form = client.get(page)
    assert form.status_code == 200, form.text[:300]
    token = CSRF.search(form.text)
    assert token is not None
    return client.post(action, data={"csrfmiddlewaretoken": token.group(1), **fields})


def test_the_banner_names_the_port(started):
    base, banner = started.base, started.banner
    assert f"  Web:       {base}/  (admin at {base}/admin/)" in banner
    assert f"  Sign in:   {base}/login/" in banner
    assert f"  API keys:  {base}/keys/" in banner
    assert f"  MCP URL:   {base}/mcp" in banner
    block = re.search(r"^\{$.*?^\}$", banner, re.MULTILINE | re.DOTALL)
    assert block is not None, banner
    config = json.loads(block.group(0))
    assert config["mcpServers"]["knownbase"]["url"] == f"{base}/mcp"
    assert f"claude mcp add --transport http knownbase {base}/mcp --header" in banner
    _only_on(base, banner)
    # And they answer: this is the server that printed them.
    assert httpx2.get(f"{base}/login/", timeout=30).status_code == 200


def test_the_home_page_dashboard_and_key_page_name_the_port(started):
    base = started.base
    landing = httpx2.get(f"{base}/", timeout=30)
    assert f"<code>{base}/mcp</code>" in landing.text
    _only_on(base, landing.text)

    password = re.search(r"^  Password:  (\S+)$", started.banner, re.MULTILINE)
    assert password is not None
    with httpx2.Client(base_url=base, follow_redirects=True, timeout=30) as client:
        signed_in = _post_form(
            client, "/login/", "/login/", {"username": "demo@knownbase.local", "password": password.group(1)}
        )
        assert signed_in.status_code == 200
        dashboard = client.get("/")
        assert f"MCP endpoint: <code>{base}/mcp</code>" in dashboard.text
        _only_on(base, dashboard.text)

        created = _post_form(
            client, "/keys/", "/keys/new/", {"name": "port check", "access": "read_write", "project": ""}
        )
        assert created.status_code == 200, created.text[:500]
        assert f"The MCP endpoint is <code>{base}/mcp</code>" in created.text
        # Each ready configuration over HTTP (JSON, TOML, a command line) names the endpoint on this
        # port; the stdio one names no URL.
        found = re.findall(
            r'<pre class="mono" id="config-([\w-]+)-text"[^>]*>(.*?)</pre>', created.text, re.DOTALL
        )
        hooks = {"claude-code-hook", "gemini-cli-hook", "cursor-rules", "agents-md", "copilot-instructions"}
        configs = [text for slug, text in found if slug not in hooks]
        assert len(configs) >= 4
        assert [config for config in configs if f"{base}/mcp" not in config] == [configs[-1]]
        assert "mcp_stdio" in configs[-1]
        # The hooks and rules-file commands call the REST API on this port.
        hook_texts = [text for slug, text in found if slug in hooks]
        assert len(hook_texts) == len(hooks) and all(f"{base}/api/v1/projects/" in t for t in hook_texts)
        _only_on(base, created.text)


def test_the_confirmation_mail_links_to_the_port(started):
    base = started.base
    with httpx2.Client(base_url=base, follow_redirects=True, timeout=30) as client:
        signed_up = _post_form(
            client,
            "/signup/",
            "/signup/",
            {"email": "port@example.test", "name": "Port", "password": PASSWORD, "team": "Port team"},
        )
        assert signed_up.status_code == 200, signed_up.text[:500]
    deadline = time.monotonic() + 60
    links: list[str] = []
    while not links and time.monotonic() < deadline:
        links = re.findall(r"\S+/verify-email/[\w.:-]+/", started.log.read_text(errors="replace"))
        time.sleep(0.2)
    assert len(links) == 1, started.log.read_text(errors="replace")[-3000:]
    assert links[0].startswith(f"{base}/verify-email/")
    with httpx2.Client(follow_redirects=True, timeout=30) as visitor:
        assert visitor.get(links[0]).status_code == 200


def test_the_oauth_metadata_names_the_port(started):
    base = started.base
    resource = httpx2.get(f"{base}/.well-known/oauth-protected-resource/mcp", timeout=30)
    assert resource.status_code == 200
    assert resource.json()["resource"] == f"{base}/mcp"
    assert [server.rstrip("/") for server in resource.json()["authorization_servers"]] == [base]

    server = httpx2.get(f"{base}/.well-known/oauth-authorization-server", timeout=30).json()
    assert server["issuer"] == base
    endpoints = {key: value for key, value in server.items() if key.endswith("_endpoint")}
    assert {"authorization_endpoint", "token_endpoint", "registration_endpoint"} <= set(endpoints)
    assert all(url.startswith(f"{base}/") for url in endpoints.values()), endpoints

    refused = httpx2.post(f"{base}/mcp", json={}, timeout=30)
    assert refused.status_code == 401
    metadata = f'resource_metadata="{base}/.well-known/oauth-protected-resource/mcp"'
    assert metadata in refused.headers["www-authenticate"]
