"""Ready-to-paste configurations that connect each common MCP client to Knownbase with one API key.

Every builder returns the exact text to paste, produced by a serializer (json, shlex, TOML strings
quoted like JSON's) so that a URL or key can never break the file it lands in."""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass

SERVER_NAME = "knownbase"
# The hooks and rules-file commands read the key (and, for a key not bound to one project, the
# project) from the environment, so the text can be committed to a repository without the secret.
KEY_ENV = "KNOWNBASE_API_KEY"
PROJECT_ENV = "KNOWNBASE_PROJECT"
# The brief a session-start hook injects: small enough to be read at every start (Claude Code keeps
# hook output that is far larger than this out of the context), large enough for the constraints,
# conflicts and decisions of a busy project.
HOOK_BUDGET = 1500


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
    command = f"{KEY_ENV}={shlex.quote(key)} python manage.py mcp_stdio"
    return ClientConfig(
        "stdio", "stdio (self-hosted)", "run in the Knownbase folder", "shell", command + "\n"
    )


BUILDERS = (claude_code, cursor, vscode, codex, windsurf, generic_http, stdio)


def all_configs(url: str, key: str) -> list[ClientConfig]:
    return [build(url, key) for build in BUILDERS]


# ------------------------------------------------------------------ context without a tool call


def _in_double_quotes(text: str) -> str:
    """`text` for the inside of a shell double-quoted word: only these four are special there."""
    for special in ("\\", '"', "$", "`"):
        text = text.replace(special, "\\" + special)
    return text


def _api_url(site: str, project: str | None, path: str) -> str:
    """A double-quoted shell word for a project's REST path; the project from the environment when the
    key is not bound to one."""
    slug = _in_double_quotes(project) if project else "${" + PROJECT_ENV + "}"
    return f'"{_in_double_quotes(site)}/api/v1/projects/{slug}/{_in_double_quotes(path)}"'


def _curl(url: str) -> str:
    # -f: an error answer prints nothing (a failing hook must not inject an error page as context).
    return f'curl -fsS --max-time 10 -H "Authorization: Bearer ${{{KEY_ENV}}}" {url}'


def claude_code_hook(site: str, project: str | None) -> ClientConfig:
    """A SessionStart hook: Claude Code adds a SessionStart command's standard output (exit code 0) to
    the session's context, so the command only has to print the brief."""
    url = _api_url(site, project, f"context?format=markdown&budget={HOOK_BUDGET}")
    document = {"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": _curl(url)}]}]}}
    return ClientConfig(
        "claude-code-hook",
        "Claude Code (SessionStart hook)",
        ".claude/settings.json",
        "json",
        _json(document),
    )


def gemini_cli_hook(site: str, project: str | None) -> ClientConfig:
    """Gemini CLI parses a hook's standard output as JSON and adds `additionalContext` to the model's
    context (plain text would only be shown to the person), so this hook asks for the brief already
    wrapped as that JSON: curl alone, no jq."""
    url = _api_url(site, project, f"context?format=session_start&budget={HOOK_BUDGET}")
    hook = {"name": "knownbase-context", "type": "command", "command": _curl(url)}
    document = {"hooks": {"SessionStart": [{"hooks": [hook]}]}}
    return ClientConfig(
        "gemini-cli-hook", "Gemini CLI (SessionStart hook)", ".gemini/settings.json", "json", _json(document)
    )


def cursor_rules(site: str, project: str | None) -> ClientConfig:
    url = _api_url(site, project, "render?target=cursor_rules")
    command = f"mkdir -p .cursor/rules && {_curl(url)} -o .cursor/rules/knownbase.mdc\n"
    return ClientConfig(
        "cursor-rules", "Cursor (rules file)", "run in the repository, again to refresh", "shell", command
    )


# Replaces the section between its marker lines (the first and last lines render prints) and leaves
# the rest of the file alone; appends it when the file has none. ENVIRON, not -v: awk would expand
# backslash escapes in a -v value.
_REPLACE_SECTION = """awk '
BEGIN { s = ENVIRON["KB_SECTION"]; n = split(s, line, "\\n"); first = line[1]; last = line[n] }
$0 == first { print s; skip = 1; done = 1; next }
skip { if ($0 == last) skip = 0; next }
{ print }
END { if (!done) { if (NR) print ""; print s } }'"""


def agents_md(site: str, project: str | None, file_name: str = "AGENTS.md") -> ClientConfig:
    url = _api_url(site, project, "render?target=agents_md")
    target = shlex.quote(file_name)
    command = (
        f"section=$({_curl(url)}) && touch {target} && \\\n"
        f'KB_SECTION="$section" {_REPLACE_SECTION} {target} > {target}.tmp && mv {target}.tmp {target}\n'
    )
    return ClientConfig(
        "agents-md",
        "AGENTS.md / CLAUDE.md section (Codex and any agent that reads AGENTS.md)",
        "run in the repository, again to refresh",
        "shell",
        command,
    )


def copilot_instructions(site: str, project: str | None) -> ClientConfig:
    """GitHub Copilot reads .github/copilot-instructions.md: the same section, refreshed the same way."""
    section = agents_md(site, project, ".github/copilot-instructions.md")
    return ClientConfig(
        "copilot-instructions",
        "GitHub Copilot (.github/copilot-instructions.md section)",
        section.where,
        section.language,
        "mkdir -p .github && " + section.text,
    )


HOOK_BUILDERS = (claude_code_hook, gemini_cli_hook, cursor_rules, agents_md, copilot_instructions)


def hook_configs(site: str, project: str | None) -> list[ClientConfig]:
    return [build(site, project) for build in HOOK_BUILDERS]
