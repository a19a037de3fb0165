"""Each client's configuration parses as what that client reads, with the URL and key intact."""

from __future__ import annotations

import json
import shlex
import tomllib

import pytest

from web import client_configs

URL = "https://kb.example.com/mcp"
KEY = "kb_0123456789abCDEF-_ghijklmnopqrstuvwxyz0123456789AB"
BEARER = {"Authorization": f"Bearer {KEY}"}


def test_claude_code_command():
    config = client_configs.claude_code(URL, KEY)
    assert shlex.split(config.text) == [
        "claude",
        "mcp",
        "add",
        "--transport",
        "http",
        "knownbase",
        URL,
        "--header",
        f"Authorization: Bearer {KEY}",
    ]


def test_cursor_json():
    config = client_configs.cursor(URL, KEY)
    assert config.where == "~/.cursor/mcp.json"
    assert json.loads(config.text) == {"mcpServers": {"knownbase": {"url": URL, "headers": BEARER}}}


def test_vscode_json_uses_servers():
    config = client_configs.vscode(URL, KEY)
    assert config.where == ".vscode/mcp.json"
    assert json.loads(config.text) == {
        "servers": {"knownbase": {"type": "http", "url": URL, "headers": BEARER}}
    }


def test_codex_toml():
    config = client_configs.codex(URL, KEY)
    assert config.where == "~/.codex/config.toml"
    assert tomllib.loads(config.text) == {"mcp_servers": {"knownbase": {"url": URL, "http_headers": BEARER}}}


def test_windsurf_json_uses_server_url():
    config = client_configs.windsurf(URL, KEY)
    assert json.loads(config.text) == {"mcpServers": {"knownbase": {"serverUrl": URL, "headers": BEARER}}}


def test_generic_http_json():
    assert json.loads(client_configs.generic_http(URL, KEY).text) == {"url": URL, "headers": BEARER}


def test_stdio_command():
    words = shlex.split(client_configs.stdio(URL, KEY).text)
    assert words == [f"KNOWNBASE_API_KEY={KEY}", "python", "manage.py", "mcp_stdio"]


@pytest.mark.parametrize(
    "url", ['http://127.0.0.1:8000/mcp?a="b"&c=d', "https://x.test/mcp\\path", "https://ü.test/mcp"]
)
def test_odd_urls_cannot_break_any_format(url):
    assert json.loads(client_configs.cursor(url, KEY).text)["mcpServers"]["knownbase"]["url"] == url
    assert tomllib.loads(client_configs.codex(url, KEY).text)["mcp_servers"]["knownbase"]["url"] == url
    assert shlex.split(client_configs.claude_code(url, KEY).text)[6] == url


def test_all_configs_has_one_per_client_with_unique_slugs():
    configs = client_configs.all_configs(URL, KEY)
    assert [c.client for c in configs] == [
        "Claude Code",
        "Cursor",
        "VS Code",
        "Codex",
        "Windsurf",
        "Any HTTP client",
        "stdio (self-hosted)",
    ]
    assert len({c.slug for c in configs}) == len(configs)
    assert all(KEY in c.text for c in configs)
