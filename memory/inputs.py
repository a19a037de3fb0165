"""Every input a caller can give the store, declared once: limits, choices, patterns and defaults.

The store's checks (memory.validation), the importer (memory.transfer), the MCP input schemas
(mcp_gateway.tools) and the REST serializers and web forms all read these declarations, so a value
one entry point accepts is never one another refuses. Choices come from the models' TextChoices.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory.models import LinkKind, NoteStatus, NoteType, Visibility


@dataclass(frozen=True)
class TextInput:
    max_length: int
    description: str = ""


@dataclass(frozen=True)
class NumberInput:
    minimum: int | float
    maximum: int | float
    default: int | float | None = None
    description: str = ""


@dataclass(frozen=True)
class ListInput:
    max_items: int
    description: str = ""


# Text fields of notes and projects. The MCP schemas publish only the descriptions of QUERY,
# IDEMPOTENCY_KEY and SINCE (every word of tools/list is paid for); the REST schema publishes all.
TITLE = TextInput(300, "One line that says what the note is about.")
BODY = TextInput(50_000, "The note's text, in Markdown.")
TAG = TextInput(64, "A tag: lowercase letters, digits and - _ . : / + # (spaces become hyphens).")
SOURCE = TextInput(100, "which client wrote it")
DELETE_REASON = TextInput(300, "Why the note is deleted, kept with it.")
QUERY = TextInput(500, "what you are about to do")
PROJECT_NAME = TextInput(120, "The project's display name.")
PROJECT_SLUG = TextInput(60, "project slug")
PROJECT_TEXT = TextInput(20_000, "Markdown text kept with the project.")
NOTE_ID = TextInput(40, "An opaque note id.")
IDEMPOTENCY_KEY = TextInput(200, "retry-safe key")
CURSOR = TextInput(2_000, "The opaque cursor a previous page returned, passed back unchanged.")
SINCE = TextInput(64, "RFC 3339 time")
RULE_NAME = TextInput(60)
RULE_VALUE = TextInput(500)
ACTION = TextInput(60)
API_KEY_NAME = TextInput(100, "A label for the key, shown in key lists.")
API_KEY_ID = TextInput(40, "The key's public prefix (kb_…), never its secret.")
EMAIL = TextInput(254, "A team member's email address.")

# Lists.
TAGS = ListInput(20, "Tags of the note.")
NOTE_IDS = ListInput(50, "Note ids.")
SUPERSEDES = ListInput(20, "Ids of notes this one replaces: they are marked superseded.")
CHECKPOINT_ITEMS = ListInput(30, "One item per entry.")

# Numbers.
IMPORTANCE = NumberInput(0, 1, 0.5, "How much the note matters, 0 to 1 (0.5 ordinary, 0.9 critical).")
VERSION = NumberInput(1, 2**31 - 1, None, "A note version number.")
SEARCH_LIMIT = NumberInput(1, 50, 10, "How many results at most.")
FEED_LIMIT = NumberInput(1, 200, 50, "How many changes at most in this page.")
FEED_MAX_TOKENS = NumberInput(1, 100_000, None, "Token budget of the whole page.")
CONTEXT_MAX_TOKENS = NumberInput(100, 50_000, None, "Token budget of the whole response.")
# 0 clears the project's default: get_context then uses the detail level's (or the plan's) budget.
PROJECT_CONTEXT_BUDGET = NumberInput(
    0, 50_000, None, "get_context's token budget when the caller gives none (100 to 50,000; 0 clears it)."
)
REVISIONS_LIMIT = NumberInput(1, 100, 20, "How many revisions at most, newest first.")
LIST_LIMIT = NumberInput(1, 200, 50, "How many notes at most in this page.")
AUDIT_LIMIT = NumberInput(1, 500, 50, "How many events at most.")
CONFLICT_LIMIT = NumberInput(1, 100, 25, "How many conflicts at most in this page.")

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
