"""Every input a caller can give the store, declared once: limits, choices, patterns and defaults.

The limits are written in accounts.limits, billing.limits and memory.limits (each where the lowest
model that stores it may import it) and re-exported here: this module is the one place to read them.

The model fields, the store's checks (memory.validation), the importer (memory.transfer), the MCP
argument types (mcp_gateway.arguments), the REST serializers and the web forms all read these
declarations, so a value one entry point accepts is never one another refuses or a column cannot
hold; tests/memory/test_limits.py fails on a bound anywhere that disagrees. Choices come from the
models' TextChoices.
"""

from __future__ import annotations

import re

# Star imports on purpose: this module re-exports every limit, so a limit added to one of the three
# modules is public here without a second list to keep.
from accounts.limits import *  # noqa: F403
from billing.limits import *  # noqa: F403
from memory.limits import *  # noqa: F403
from memory.models import LinkKind, NoteStatus, NoteType, Visibility

# Patterns.
TAG_PATTERN = re.compile(r"^[a-z0-9][a-z0-9._:/+#-]*$")
SLUG_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

# Choices, from the models.
NOTE_TYPES: tuple[str, ...] = tuple(NoteType.values)
NOTE_STATUSES: tuple[str, ...] = tuple(NoteStatus.values)
VISIBILITIES: tuple[str, ...] = tuple(Visibility.values)
LINK_KINDS: tuple[str, ...] = tuple(LinkKind.values)
DETAIL_LEVELS: tuple[str, ...] = ("lean", "balanced", "deep")
EXPORT_FORMATS: tuple[str, ...] = ("json", "markdown")
# get_context over REST: the JSON response, the same packing as a Markdown brief, or that brief
# wrapped as a session-start hook's JSON output (for clients that read hook output only as JSON).
CONTEXT_FORMATS: tuple[str, ...] = ("json", "markdown", "session_start")
# Where memory can be brought in from (memory.transfer.formats.registry reads each; auto recognises it).
MEMORY_IMPORT_FORMATS: tuple[str, ...] = (
    "auto",
    "rules",
    "basic-memory",
    "mcp-memory-service",
    "memory-graph",
    "mem0",
)
# What render writes: an AGENTS.md / CLAUDE.md section, or a Cursor rules file (.cursor/rules/*.mdc).
RENDER_TARGETS: tuple[str, ...] = ("agents_md", "cursor_rules")
PATCH_OPS: tuple[str, ...] = ("append", "prepend", "replace")
NOTE_SORTS: tuple[str, ...] = ("-updated", "updated", "-importance", "importance")
# How a conflict between notes A and B is settled (memory.store.conflicts.resolve_conflict).
RESOLUTIONS: tuple[str, ...] = (
    "a_supersedes_b",
    "b_supersedes_a",
    "both_true",
    "a_historical",
    "b_historical",
)
RESOLUTION_LABELS: dict[str, str] = {
    "a_supersedes_b": "A supersedes B",
    "b_supersedes_a": "B supersedes A",
    "both_true": "Both true",
    "a_historical": "A is historical",
    "b_historical": "B is historical",
}
# The resolutions of a note disputed on its own (no B): keep it as current, or mark it historical.
LONE_RESOLUTIONS: tuple[str, ...] = ("both_true", "a_historical")
BULK_ACTIONS: tuple[str, ...] = ("retag", "mark_historical", "delete")

# Defaults.
DEFAULT_TYPE = NoteType.NOTE
DEFAULT_STATUS = NoteStatus.CURRENT
DEFAULT_VISIBILITY = Visibility.TEAM
