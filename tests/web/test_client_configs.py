"""Each client's configuration parses as what that client reads, with the URL and key intact."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
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


SITE = "https://kb.example.com"


def _shell_word(word: str, **env: str) -> str:
    """What sh makes of a double-quoted word, with `env` set."""
    done = subprocess.run(
        ["sh", "-c", f"printf %s {word}"],
        env={"PATH": os.environ["PATH"], **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    return done.stdout


def test_claude_code_hook_is_a_session_start_command_reading_the_key_from_the_environment():
    config = client_configs.claude_code_hook(SITE, "payments")
    assert config.where == ".claude/settings.json"
    (group,) = json.loads(config.text)["hooks"]["SessionStart"]
    (hook,) = group["hooks"]
    assert (
        hook["type"] == "command" and "matcher" not in group
    )  # every source: startup, resume, clear, compact
    words = shlex.split(hook["command"])
    assert words[:4] == ["curl", "-fsS", "--max-time", "10"]
    assert (
        words[-1]
        == f"{SITE}/api/v1/projects/payments/context?format=markdown&budget={client_configs.HOOK_BUDGET}"
    )
    assert "Authorization: Bearer ${KNOWNBASE_API_KEY}" in words and KEY not in config.text


def test_gemini_cli_hook_asks_for_the_brief_as_hook_json():
    config = client_configs.gemini_cli_hook(SITE, "payments")
    assert config.where == ".gemini/settings.json"
    (group,) = json.loads(config.text)["hooks"]["SessionStart"]
    (hook,) = group["hooks"]
    assert hook["type"] == "command" and hook["name"] == "knownbase-context"
    words = shlex.split(hook["command"])
    assert words[-1] == (
        f"{SITE}/api/v1/projects/payments/context?format=session_start&budget={client_configs.HOOK_BUDGET}"
    )
    assert KEY not in config.text


def test_copilot_instructions_refresh_their_own_file():
    config = client_configs.copilot_instructions(SITE, "payments")
    assert config.text.startswith("mkdir -p .github && ")
    assert ".github/copilot-instructions.md.tmp" in config.text
    assert "AGENTS.md" not in config.text


def test_a_key_for_every_project_takes_the_project_from_the_environment():
    for config in client_configs.hook_configs(SITE, None):
        assert "${KNOWNBASE_PROJECT}" in config.text, config.slug
    url = client_configs._api_url(SITE, None, "render?target=agents_md")
    assert (
        _shell_word(url, KNOWNBASE_PROJECT="website")
        == f"{SITE}/api/v1/projects/website/render?target=agents_md"
    )


@pytest.mark.parametrize(
    "site", ['http://127.0.0.1:8000/a"b', "https://x.test/$HOME/`id`", "https://x.test/a\\b"]
)
def test_odd_site_urls_reach_curl_unchanged(site):
    url = client_configs._api_url(site, "payments", "context?format=markdown&budget=1500")
    assert (
        _shell_word(url, HOME="/nowhere")
        == f"{site}/api/v1/projects/payments/context?format=markdown&budget=1500"
    )


def test_hook_configs_have_unique_slugs_apart_from_the_mcp_configs():
    slugs = [c.slug for c in client_configs.hook_configs(SITE, "payments")]
    assert slugs == [
        "claude-code-hook",
        "gemini-cli-hook",
        "cursor-rules",
        "agents-md",
        "copilot-instructions",
    ]
    assert not set(slugs) & {c.slug for c in client_configs.all_configs(URL, KEY)}
