"""Ready-to-paste configurations that connect each common MCP client to Knownbase with one API key.

Every builder returns the exact text to paste, produced by a serializer (json, shlex, TOML strings
quoted like JSON's) so that a URL or key can never break the file it lands in."""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass

SERVER_NAME = "knownbase"


@dataclass(frozen=True)
class ClientConfig:
    slug: str  # stable id for the page's anchors and tests
    client: str  # the product the text is for
    where: str  # the file to edit, or where to run the command
    language: str  # json, toml or shell
    text: str


def _bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _json(document: object) -> str:
    return json.dumps(document, indent=2) + "\n"


def _toml_string(value: str) -> str:
    # A JSON string is a valid TOML basic string: the same quotes, backslash escapes and \uXXXX forms.
    return json.dumps(value)


def claude_code(url: str, key: str) -> ClientConfig:
    command = shlex.join(
        [
            "claude",
            "mcp",
            "add",
            "--transport",
            "http",
            SERVER_NAME,
            url,
            "--header",
            f"Authorization: Bearer {key}",
        ]
    )
    return ClientConfig("claude-code", "Claude Code", "run in a terminal", "shell", command + "\n")


def cursor(url: str, key: str) -> ClientConfig:
    document = {"mcpServers": {SERVER_NAME: {"url": url, "headers": _bearer(key)}}}
    return ClientConfig("cursor", "Cursor", "~/.cursor/mcp.json", "json", _json(document))


def vscode(url: str, key: str) -> ClientConfig:
    document = {"servers": {SERVER_NAME: {"type": "http", "url": url, "headers": _bearer(key)}}}
    return ClientConfig("vscode", "VS Code", ".vscode/mcp.json", "json", _json(document))


def codex(url: str, key: str) -> ClientConfig:
    header = f"{_toml_string('Authorization')} = {_toml_string(f'Bearer {key}')}"
    text = f"[mcp_servers.{SERVER_NAME}]\nurl = {_toml_string(url)}\nhttp_headers = {{ {header} }}\n"
    return ClientConfig("codex", "Codex", "~/.codex/config.toml", "toml", text)


def windsurf(url: str, key: str) -> ClientConfig:
    document = {"mcpServers": {SERVER_NAME: {"serverUrl": url, "headers": _bearer(key)}}}
    return ClientConfig(
        "windsurf", "Windsurf", "~/.codeium/windsurf/mcp_config.json", "json", _json(document)
    )


def generic_http(url: str, key: str) -> ClientConfig:
    document = {"url": url, "headers": _bearer(key)}
    return ClientConfig("http", "Any HTTP client", "streamable HTTP transport", "json", _json(document))


def stdio(url: str, key: str) -> ClientConfig:
    # For a self-hosted checkout: the same tools over stdio, acting for the same key.
    command = f"KNOWNBASE_API_KEY={shlex.quote(key)} python manage.py mcp_stdio"
    return ClientConfig(
        "stdio", "stdio (self-hosted)", "run in the Knownbase folder", "shell", command + "\n"
    )


BUILDERS = (claude_code, cursor, vscode, codex, windsurf, generic_http, stdio)


def all_configs(url: str, key: str) -> list[ClientConfig]:
    return [build(url, key) for build in BUILDERS]
