"""The hook and rules-file commands the new-key page gives, run as the client runs them (sh, curl)
against the live server: their output is what each client reads, within budget.

Claude Code runs a SessionStart hook's command with the event as JSON on standard input and adds
its standard output (exit code 0) to the session's context as plain text; output that parses as JSON
would instead be read as hook instructions, so the brief must not."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

from memory.recall.tokens import estimate_tokens
from tests.mcp_gateway.state import save
from web import client_configs

SESSION_START = {
    "session_id": "abc123",
    "transcript_path": "/tmp/transcript.jsonl",
    "cwd": "/repo",
    "hook_event_name": "SessionStart",
    "source": "startup",
}


def _new_key_page(as_user: Any, cast: Any, project: str = "") -> tuple[str, dict[str, str]]:
    client = as_user(cast.owner, cast.acme)
    response = client.post(
        "/keys/new/", {"name": "hook", "project": project, "access": "read_only", "expires": ""}
    )
    assert response.status_code == 200
    page = response.content.decode()
    raw = re.search(r'id="raw-key"[^>]*value="(kb_[^"]+)"', page)
    assert raw, page
    texts = {
        slug: html.unescape(text)
        for slug, text in re.findall(
            r'<pre class="mono" id="config-([a-z-]+)-text"[^>]*>(.*?)</pre>', page, re.S
        )
    }
    return raw.group(1), texts


def _run(command: str, key: str, cwd: Path, stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    environment = {"PATH": os.environ["PATH"], "HOME": str(cwd), client_configs.KEY_ENV: key, **env}
    return subprocess.run(
        ["sh", "-c", command],
        cwd=cwd,
        env=environment,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _hook_command(texts: dict[str, str]) -> str:
    settings = json.loads(texts["claude-code-hook"])
    (group,) = settings["hooks"]["SessionStart"]
    (hook,) = group["hooks"]
    assert hook["type"] == "command"
    command: str = hook["command"]
    return command


def test_the_session_start_hook_prints_the_brief_within_its_budget(
    site_url, settings, as_user, cast, tmp_path
):
    settings.SITE_URL = site_url  # the page names the live server
    rule = save(cast, "Amounts in cents", "Never floats for money.", type="constraint", importance=0.95)
    for i in range(40):
        save(
            cast,
            f"Decision {i} on refunds",
            f"Refunds {i}: " + "every movement goes through the ledger, in integer cents. " * 15,
            type=("decision", "architecture", "task", "fact")[i % 4],
        )
    key, texts = _new_key_page(as_user, cast, project="payments")
    command = _hook_command(texts)
    assert key not in command  # the key comes from the environment

    done = _run(command, key, tmp_path, stdin=json.dumps(SESSION_START))
    assert done.returncode == 0, done.stderr
    brief = done.stdout
    assert brief.startswith("# Project brief: Payments API (payments)\n")
    assert f"**Amounts in cents**: Never floats for money. ({rule})" in brief
    assert "more notes left out for the budget" in brief  # the budget, not the notes, ended it
    assert 0 < estimate_tokens(brief) <= client_configs.HOOK_BUDGET
    try:
        json.loads(brief)
    except ValueError:
        pass
    else:
        raise AssertionError("the brief parses as JSON: Claude Code would read it as hook output")


def test_the_gemini_hook_prints_hook_json_carrying_the_same_brief(
    site_url, settings, as_user, cast, tmp_path
):
    settings.SITE_URL = site_url
    rule = save(cast, "Amounts in cents", "Never floats for money.", type="constraint", importance=0.95)
    for i in range(40):
        save(cast, f"Decision {i}", f"Refunds {i}: " + "the ledger keeps cents. " * 30, type="decision")
    key, texts = _new_key_page(as_user, cast, project="payments")
    (group,) = json.loads(texts["gemini-cli-hook"])["hooks"]["SessionStart"]
    (hook,) = group["hooks"]
    done = _run(hook["command"], key, tmp_path, stdin=json.dumps(SESSION_START))
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)  # Gemini CLI parses a hook's standard output as JSON
    assert set(output) == {"hookSpecificOutput"}
    specific = output["hookSpecificOutput"]
    assert specific["hookEventName"] == "SessionStart"
    brief = specific["additionalContext"]
    assert brief.startswith("# Project brief: Payments API (payments)\n") and rule in brief
    assert 0 < estimate_tokens(brief) <= client_configs.HOOK_BUDGET
    claude = _run(_hook_command(texts), key, tmp_path, stdin=json.dumps(SESSION_START))
    assert claude.stdout == brief  # one packing, two wrappings


def test_the_copilot_command_writes_its_own_file(site_url, settings, as_user, cast, tmp_path):
    settings.SITE_URL = site_url
    rule = save(cast, "Amounts in cents", "Never floats for money.", type="constraint")
    key, texts = _new_key_page(as_user, cast, project="payments")
    assert _run(texts["copilot-instructions"], key, tmp_path).returncode == 0
    written = (tmp_path / ".github" / "copilot-instructions.md").read_text()
    assert written.startswith("<!-- knownbase:begin project=payments -->") and rule in written
    assert not (tmp_path / "AGENTS.md").exists()


def test_a_key_for_every_project_names_it_in_the_environment_and_a_bad_key_injects_nothing(
    site_url, settings, as_user, cast, tmp_path
):
    settings.SITE_URL = site_url
    save(cast, "Site in UTC", "The website shows times in UTC.", type="constraint", project="website")
    key, texts = _new_key_page(as_user, cast)
    command = _hook_command(texts)
    done = _run(command, key, tmp_path, KNOWNBASE_PROJECT="website")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("# Project brief: Website (website)") and "Site in UTC" in done.stdout
    for bad_key, project in ((key + "x", "website"), (key, "lab")):
        refused = _run(command, bad_key, tmp_path, KNOWNBASE_PROJECT=project)
        assert refused.returncode != 0 and refused.stdout == ""  # no error page in the context


def test_the_rules_file_commands_write_and_refresh_their_files(site_url, settings, as_user, cast, tmp_path):
    settings.SITE_URL = site_url
    rule = save(cast, "Amounts in cents", "Never floats for money.", type="constraint")
    key, texts = _new_key_page(as_user, cast, project="payments")
    agents = tmp_path / "AGENTS.md"
    agents.write_text("# Our repo\n\nHand-written rules stay.\n")

    assert _run(texts["agents-md"], key, tmp_path).returncode == 0
    first = agents.read_text()
    assert first.startswith(
        "# Our repo\n\nHand-written rules stay.\n\n<!-- knownbase:begin project=payments -->"
    )
    assert rule in first and first.endswith("<!-- knownbase:end project=payments -->\n")

    later = save(cast, "Ledger", "Refunds go through the ledger.", type="decision")
    agents.write_text(first + "\nNotes after the section stay too.\n")
    assert _run(texts["agents-md"], key, tmp_path).returncode == 0
    second = agents.read_text()
    assert second.count("<!-- knownbase:begin project=payments -->") == 1 and later in second
    assert second.startswith("# Our repo\n\nHand-written rules stay.\n\n<!-- knownbase:begin")
    assert second.endswith("<!-- knownbase:end project=payments -->\n\nNotes after the section stay too.\n")

    refused = _run(texts["agents-md"], key + "x", tmp_path)
    assert refused.returncode != 0 and agents.read_text() == second  # a failed render changes nothing

    assert _run(texts["cursor-rules"], key, tmp_path).returncode == 0
    mdc = (tmp_path / ".cursor" / "rules" / "knownbase.mdc").read_text()
    assert mdc.startswith("---\ndescription: ") and "alwaysApply: true\n---\n" in mdc and later in mdc
