"""The README stays a short page for newcomers, and the documentation stays true to the repository.

README.md and docs/*.md are checked for: the README's length, links that lead nowhere (or out of the
repository), file paths that no longer exist, issue numbers (the docs state what is, not its
history), a settings table that misses a setting, and a Python client snippet that does not run.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]

MARKDOWN_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
ISSUE_NUMBER = re.compile(r"\bissues?\W{0,3}\d", re.IGNORECASE)
# The top-level packages and folders a page may name files in, present or moved away: a name under
# one of them that is no file is a stale page.
TOP_LEVEL = "accounts|api|bench|billing|billing_web|docs|edge|knownbase|labelled|mcp_gateway|memory|templates|tests|tools|web"
FILE_PATH = re.compile(rf"`((?:{TOP_LEVEL})/[\w./-]+\.(?:py|md|yml|yaml|toml|txt|json|jsonl|html|css))`")
SETTING_READ = re.compile(r"env_\w+\(\s*\"([A-Z_]+)\"")
SETTING_ROW = re.compile(r"^\| `([A-Z_]+(?:<CODE>)?)` \|", re.MULTILINE)


def _page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


def _fenced_block(text: str, language: str) -> str:
    [block] = re.findall(rf"^```{language}\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)
    return str(block)


def test_the_readme_is_at_most_200_lines():
    assert len(README.read_text().splitlines()) <= 200


def test_the_readme_links_every_docs_page():
    linked = set(MARKDOWN_LINK.findall(README.read_text()))
    assert {f"docs/{page.name}" for page in DOCS.glob("*.md")} <= linked


def _anchors(page: Path) -> set[str]:
    """The fragment each heading of a Markdown page gets, as GitHub makes them."""
    headings = re.findall(r"^#+ (.+)$", page.read_text(), flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


@pytest.mark.parametrize("page", PAGES, ids=_page_id)
def test_every_relative_link_points_to_a_file_in_the_repository(page):
    broken = []
    for target in MARKDOWN_LINK.findall(page.read_text()):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        path_part, _, fragment = target.partition("#")
        path = (page.parent / path_part).resolve() if path_part else page
        missing_file = not path.exists() or not path.is_relative_to(ROOT)
        if missing_file or (fragment and path.suffix == ".md" and fragment not in _anchors(path)):
            broken.append(target)
    assert broken == []


@pytest.mark.parametrize("page", PAGES, ids=_page_id)
def test_every_file_a_page_names_exists(page):
    missing = [path for path in FILE_PATH.findall(page.read_text()) if not (ROOT / path).exists()]
    assert missing == []


@pytest.mark.parametrize("page", PAGES, ids=_page_id)
def test_no_page_names_an_issue_number(page):
    assert ISSUE_NUMBER.findall(page.read_text()) == []


def test_the_settings_table_documents_every_setting_read():
    read = set(SETTING_READ.findall((ROOT / "knownbase" / "settings.py").read_text()))
    documented = {
        name.replace("<CODE>", "") for name in SETTING_ROW.findall((DOCS / "settings.md").read_text())
    }
    assert read, "no settings found: has the way settings are read changed?"
    assert read - documented == set()


def test_the_readme_python_client_runs_against_the_server(mcp, cast):
    snippet = _fenced_block(README.read_text(), "python")
    replacements = {
        '"http://127.0.0.1:8000/mcp"': repr(mcp.url),
        '"kb_..."': repr(cast.key(cast.member)),
        '"project": "demo"': '"project": "payments"',  # the cast's project stands in for the demo one
    }
    for placeholder, value in replacements.items():
        assert placeholder in snippet, placeholder
        snippet = snippet.replace(placeholder, value)
    run = subprocess.run([sys.executable, "-c", snippet], capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stderr
    tools, context = run.stdout.splitlines()
    assert "'get_context'" in tools and "'remember'" in tools
    assert "'slug': 'payments'" in context
