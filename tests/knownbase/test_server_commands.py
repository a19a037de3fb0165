"""Every command that starts the web server (make serve, the Dockerfile, docker-compose.yml) starts
uvicorn with proxy-header rewriting off. With it on, uvicorn replaces the client address with an
X-Forwarded-For entry whenever the peer is loopback (or FORWARDED_ALLOW_IPS), so a client could pick
its own address for every per-address limit; TRUSTED_PROXY_COUNT (edge.client_address) must be the
only thing that reads that header.

Each command is parsed by uvicorn's own command line, so the test checks what uvicorn would run."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
import uvicorn
import yaml

ROOT = Path(__file__).resolve().parents[2]
APP = "knownbase.asgi:application"


def _uvicorn_options(words: list[str]) -> dict[str, object]:
    """What uvicorn makes of a command line (its words after `uvicorn`)."""
    start = next(index for index, word in enumerate(words) if word.endswith("uvicorn"))
    params: dict[str, object] = uvicorn.main.make_context("uvicorn", words[start + 1 :]).params
    return params


def _makefile_commands() -> list[list[str]]:
    text = (ROOT / "Makefile").read_text()
    lines = [line.strip() for line in text.splitlines() if "uvicorn " in line and APP in line]
    # Make's variables as `make serve` fills them.
    return [
        shlex.split(
            re.sub(r"\$\((\w+)\)", lambda m: {"HOST": "127.0.0.1", "PORT": "8000"}.get(m[1], m[1]), line)
        )
        for line in lines
    ]


def _dockerfile_commands() -> list[list[str]]:
    commands = []
    for line in (ROOT / "Dockerfile").read_text().splitlines():
        if line.startswith(("CMD ", "ENTRYPOINT ")) and "uvicorn" in line:
            commands.append([str(word) for word in json.loads(line.split(" ", 1)[1])])
    return commands


def _compose_commands() -> list[list[str]]:
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    commands = []
    for service in services.values():
        command = service.get("command")
        if command and "uvicorn" in str(command):
            text = " ".join(command) if isinstance(command, list) else str(command)
            # ${NAME:-default} as compose fills it when NAME is unset.
            commands.append(shlex.split(re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", text)))
    return commands


SOURCES = {
    "Makefile": _makefile_commands,
    "Dockerfile": _dockerfile_commands,
    "docker-compose.yml": _compose_commands,
}


@pytest.mark.parametrize("source", SOURCES)
def test_the_server_starts_with_proxy_headers_off(source):
    commands = SOURCES[source]()
    assert commands, f"no uvicorn command found in {source}"
    for words in commands:
        options = _uvicorn_options(words)
        assert options["app"] == APP
        assert options["proxy_headers"] is False, f"{source}: {' '.join(words)}"


def test_uvicorn_rewrites_by_default_so_the_flag_is_needed():
    # The default this file guards against: without the flag uvicorn trusts loopback's headers.
    assert _uvicorn_options(["uvicorn", APP])["proxy_headers"] is True
