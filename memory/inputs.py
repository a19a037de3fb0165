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


@dataclass(frozen=True)
class ListInput:
    max_items: int


# Text fields of notes and projects.
TITLE = TextInput(300)
BODY = TextInput(50_000)
TAG = TextInput(64)
SOURCE = TextInput(100, "which client wrote it")
DELETE_REASON = TextInput(300)
QUERY = TextInput(500, "what you are about to do")
PROJECT_NAME = TextInput(120)
PROJECT_SLUG = TextInput(60, "project slug")
PROJECT_TEXT = TextInput(20_000)
NOTE_ID = TextInput(40)
IDEMPOTENCY_KEY = TextInput(200, "retry-safe key")
CURSOR = TextInput(2_000)
SINCE = TextInput(64, "RFC 3339 time")
RULE_NAME = TextInput(60)
RULE_VALUE = TextInput(500)
ACTION = TextInput(60)

# Lists.
TAGS = ListInput(20)
NOTE_IDS = ListInput(50)
SUPERSEDES = ListInput(20)
CHECKPOINT_ITEMS = ListInput(30)

# Numbers.
IMPORTANCE = NumberInput(0, 1, 0.5)
VERSION = NumberInput(1, 2**31 - 1)
SEARCH_LIMIT = NumberInput(1, 50, 10)
FEED_LIMIT = NumberInput(1, 200, 50)
FEED_MAX_TOKENS = NumberInput(1, 100_000)
CONTEXT_MAX_TOKENS = NumberInput(100, 50_000)
REVISIONS_LIMIT = NumberInput(1, 100, 20)
LIST_LIMIT = NumberInput(1, 200, 50)
AUDIT_LIMIT = NumberInput(1, 500, 50)

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

# Defaults.
DEFAULT_TYPE = NoteType.NOTE
DEFAULT_STATUS = NoteStatus.CURRENT
DEFAULT_VISIBILITY = Visibility.TEAM
