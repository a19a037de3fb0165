"""WhiteNoise serves the collected static files (the admin's CSS) from the Django side of the ASGI app;
once collected, pages name them by content hash and they are cached for good."""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx2
import pytest
from django.contrib import admin
from django.core.management import call_command
from django.test import Client

from tests.live_mcp import free_port

ROOT = Path(__file__).resolve().parents[2]
ADMIN_CSS = Path(admin.__file__).parent / "static" / "admin" / "css" / "base.css"


def _body(response) -> bytes:
    try:
        return b"".join(response.streaming_content)
    finally:
        response.close()


# `db`: closing a response sends request_finished, whose handler checks the database connection.
def test_collected_admin_css_is_served(settings, tmp_path, db):
    settings.STATIC_ROOT = tmp_path / "static"
    settings.STATIC_ROOT.mkdir()
    # As in production: only what collectstatic put in STATIC_ROOT, no app folders, no rescans.
    settings.WHITENOISE_USE_FINDERS = False
    settings.WHITENOISE_AUTOREFRESH = False
    assert Client().get("/static/admin/css/base.css").status_code == 404, "served before collectstatic"

    call_command("collectstatic", "--noinput", verbosity=0)
    client = Client()  # WhiteNoise indexes STATIC_ROOT when the middleware is built

    response = client.get("/static/admin/css/base.css")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")
    assert "max-age=" in response["Cache-Control"]
    assert _body(response) == ADMIN_CSS.read_bytes()

    compressed = client.get("/static/admin/css/base.css", HTTP_ACCEPT_ENCODING="gzip")
    assert compressed["Content-Encoding"] == "gzip"
    assert gzip.decompress(_body(compressed)) == ADMIN_CSS.read_bytes()

    assert client.get("/static/admin/css/no-such-file.css").status_code == 404


def test_pages_name_hashed_static_files_cached_for_good_once_collected(settings, tmp_path, db):
    settings.STATIC_ROOT = tmp_path / "static"
    settings.STATIC_ROOT.mkdir()
    settings.WHITENOISE_USE_FINDERS = False
    settings.WHITENOISE_AUTOREFRESH = False
    # Before collectstatic (tests, a fresh checkout) pages still render, with the plain names.
    before = Client().get("/login/").content.decode()
    assert 'href="/static/web/app.css"' in before

    call_command("collectstatic", "--noinput", verbosity=0)
    client = Client()
    html = client.get("/login/").content.decode()
    hashed = re.search(r'href="(/static/web/app\.([0-9a-f]{12})\.css)"', html)
    assert hashed is not None, "the page names the stylesheet by its content hash"
    assert re.search(r'src="/static/web/app\.[0-9a-f]{12}\.js"', html)
    assert (
        hashed.group(2)
        == hashlib.md5((ROOT / "web/static/web/app.css").read_bytes(), usedforsecurity=False).hexdigest()[:12]
    )

    response = client.get(hashed.group(1))
    assert response.status_code == 200
    cache = response["Cache-Control"]
    max_age = int(re.search(r"max-age=(\d+)", cache).group(1))  # type: ignore[union-attr]
    assert max_age >= 365 * 24 * 3600 and "immutable" in cache
    assert _body(response) == (ROOT / "web/static/web/app.css").read_bytes()
    # The plain name stays short-lived: it changes content without changing its name.
    plain = client.get("/static/web/app.css")
    assert "immutable" not in plain["Cache-Control"]
    plain.close()


@pytest.mark.slow
@pytest.mark.live_server
def test_production_server_serves_admin_css_collected_like_the_docker_build(tmp_path):
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DEBUG")},
        "KNOWNBASE_ENV": "production",
        "SECRET_KEY": "kb-test-5f0c9a1e7d3b48c2a6e1f9d07b3c5a8e",
        "KNOWNBASE_DATA_DIR": str(tmp_path / "data"),
        "STATIC_ROOT": str(tmp_path / "static"),
        "SITE_URL": f"http://127.0.0.1:{port}",
    }
    collect = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert collect.returncode == 0, collect.stderr

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
    try:
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
        response = httpx2.get(f"http://127.0.0.1:{port}/static/admin/css/base.css")
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/css")
        assert response.content == ADMIN_CSS.read_bytes()
    finally:
        server.terminate()
        server.wait(timeout=10)
    # Static files need no database: nothing may have started an embedded server in the data folder.
    assert not (tmp_path / "data" / "pgdata").exists()
