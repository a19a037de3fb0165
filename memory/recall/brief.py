"""get_context as Markdown, for clients that read text rather than call a tool (session-start hooks).

The brief is rendered from get_context's packed response, so it holds the same notes in the same
order. Markdown says what JSON's keys and quotes say in fewer characters, so a response packed within
the budget renders within it too; the rendering still checks the estimate and drops the last entries
(then the trailing header lines) should a budget be too small for that, so the brief is within the
budget by construction, not by the ratio alone.
"""

from __future__ import annotations

import re
from typing import Any

from memory.recall.tokens import estimate_tokens
from memory.shapes import results

SECTION_TITLES = {
    "constraints": "Constraints",
    "conflicts": "Conflicts and warnings",
    "decisions": "Decisions",
    "architecture": "Architecture",
    "failed_approaches": "Failed approaches (do not retry)",
    "status": "Status",
    "relevant": "Relevant to the task",
    "open_items": "Open items",
    "recent_changes": "Recent changes",
}
_WS = re.compile(r"\s+")


def _line(text: str) -> str:
    """One line of Markdown: a note's text may hold newlines and headings of its own."""
    return _WS.sub(" ", text).strip()


def _entry(entry: results.ContextEntry) -> str:
    labels = [entry[key] for key in ("type", "status") if key in entry]
    prefix = f"[{', '.join(labels)}] " if labels else ""
    text = f"- {prefix}**{_line(entry['title'])}**"
    if entry.get("excerpt"):
        text += f": {_line(entry['excerpt'])}"
    tail = [entry["id"]]
    if entry.get("reason"):
        tail.append(_line(entry["reason"]))
    if "version" in entry:
        tail.append(f"v{entry['version']}")
    return f"{text} ({'; '.join(tail)})"


def render(context: results.Context, budget: int) -> str:
    """The Markdown brief of a get_context response, within `budget` tokens (estimate_tokens)."""
    project = context["project"]
    head = [f"# Project brief: {_line(project['name'])} ({project['slug']})"]
    if project["summary"]:
        head.append(_line(project["summary"]))
    if project["agent_instructions"]:
        head.append(f"Instructions: {_line(project['agent_instructions'])}")
    sections: dict[str, Any] = dict(context["sections"])
    entries = [(section, _entry(entry)) for section, listed in sections.items() for entry in listed]
    left_out = context["meta"]["omitted_count"]
    # The most entries that fit, in packing order (the last ones are the least important).
    for kept in range(len(entries), -1, -1):
        text = _text(head, entries[:kept], left_out + len(entries) - kept)
        if estimate_tokens(text) <= budget:
            return text
    while head and estimate_tokens(_text(head, [], left_out + len(entries))) > budget:
        head.pop()
    return _text(head, [], left_out + len(entries))


def _text(head: list[str], entries: list[tuple[str, str]], left_out: int) -> str:
    lines = list(head)
    section = ""
    for entry_section, line in entries:
        if entry_section != section:
            section = entry_section
            lines.append(f"## {SECTION_TITLES.get(section, section)}")
        lines.append(line)
    if left_out:
        lines.append(f"_{left_out} more notes left out for the budget: ask get_context or search_notes._")
    return "\n".join(lines) + "\n" if lines else ""
