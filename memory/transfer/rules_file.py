"""render: a project's current constraints, decisions and procedures as text an agent reads unasked.

For agents without MCP, and for teams who commit their rules: an AGENTS.md / CLAUDE.md section or a
Cursor rules file (.cursor/rules/*.mdc, always applied). The section sits between marker comments
naming the project, so a script can replace it on the next render and leave the rest of the file
alone; the order is stable (type, then oldest first), so a re-render changes only what changed.
"""

from __future__ import annotations

import json
import re

from accounts.principal import Principal
from memory import limits
from memory.models import Note, NoteStatus, NoteType, Project

RENDERED_TYPES = (
    (NoteType.CONSTRAINT, "Constraints (must hold)"),
    (NoteType.DECISION, "Decisions in force"),
    (NoteType.PROCEDURE, "Procedures"),
)
_WS = re.compile(r"\s+")
_BLANK_LINES = re.compile(r"\n{3,}")


def begin_marker(slug: str) -> str:
    return f"<!-- knownbase:begin project={slug} -->"


def end_marker(slug: str) -> str:
    return f"<!-- knownbase:end project={slug} -->"


def _safe(text: str) -> str:
    # A note's own comment could otherwise close the section early, or open a second one.
    return text.replace("<!--", "&lt;!--")


def _cut(text: str, limit: int) -> str:
    """The start of `text` with its lines kept (a procedure's steps, a code block), cut at a line or
    word end."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    end = max(cut.rfind("\n"), cut.rfind(" "))
    return (cut[:end] if end > limit * 0.6 else cut).rstrip() + "…"


def _item(note: Note) -> list[str]:
    title = _safe(_WS.sub(" ", note.title).strip())
    body = _cut(note.body.strip(), limits.RENDER_BODY_CHARS)
    lines = [f"- **{title}** (`{note.public_id}`)"]
    if body and body.rstrip(" .") != note.title.strip().rstrip(" ."):
        # Indented under its bullet, so a multi-line body (steps, code) stays part of the item.
        lines += [
            f"  {line}" if line.strip() else "" for line in _safe(_BLANK_LINES.sub("\n\n", body)).split("\n")
        ]
    return lines


def _notes(principal: Principal, project: Project, note_type: str) -> list[Note]:
    found = (
        Note.objects.visible_to(principal)
        .live()
        .filter(project=project, type=note_type, status=NoteStatus.CURRENT)
        .order_by("created_at", "pk")
    )
    return list(found[: limits.RENDER_NOTES_PER_TYPE])


def agents_md(principal: Principal, project: Project) -> str:
    """The project's section of an AGENTS.md / CLAUDE.md, between its markers."""
    slug = project.slug
    name = _safe(_WS.sub(" ", project.name).strip())
    lines = [
        begin_marker(slug),
        f"## Project knowledge: {name}",
        "",
        f"Rendered from Knownbase project `{slug}`. Do not edit between the markers: the next render "
        "replaces this section. Change the notes in Knownbase instead.",
    ]
    if project.agent_instructions.strip():
        lines += ["", "### Instructions", "", _safe(project.agent_instructions.strip())]
    for note_type, heading in RENDERED_TYPES:
        notes = _notes(principal, project, note_type)
        if notes:
            lines += ["", f"### {heading}", ""]
            for note in notes:
                lines += _item(note)
    lines += ["", end_marker(slug)]
    return "\n".join(lines) + "\n"


def cursor_rules(principal: Principal, project: Project) -> str:
    """A Cursor project rule (.mdc) applied to every request, holding the same section."""
    description = _WS.sub(" ", f"Knownbase: {project.name} constraints, decisions and procedures").strip()
    # The frontmatter is one `key: value` a line; a description with a colon or quote is JSON-quoted.
    front = ["---", f"description: {_yaml_string(description)}", "alwaysApply: true", "---"]
    return "\n".join(front) + "\n" + agents_md(principal, project)


def _yaml_string(value: str) -> str:
    # A JSON string is a valid YAML double-quoted scalar.
    return json.dumps(value, ensure_ascii=False)


RENDERERS = {"agents_md": agents_md, "cursor_rules": cursor_rules}
FILE_NAMES = {"agents_md": "AGENTS.md", "cursor_rules": ".cursor/rules/knownbase.mdc"}
