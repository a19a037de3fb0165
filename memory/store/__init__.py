"""The store boundary: every read and write of projects and notes, for every entry point.

Each function takes the calling Principal first and is classified read or write in memory.registry.
Writes run scope check → plan check → screening → transaction → audit. Results are plain dicts in
the shapes of the tool contract, shared by MCP, REST and the web. Callers write `store.remember(...)`;
each operation lives in the module of its resource:

- projects: list_projects, create_project, rename_project, rename_tag
- capture: remember, checkpoint
- notes: get_notes, list_notes, create_note, update_note, patch_note, delete_note, restore_note
- history: list_note_revisions, get_note_revision
- links: relate_notes
- recall: search_notes, get_context, get_changes_since
- transfer: export_project, import_project
- team: get_usage, screening rules, the audit log
"""

from memory.store.capture import checkpoint, remember
from memory.store.history import get_note_revision, list_note_revisions
from memory.store.links import relate_notes
from memory.store.notes import (
    create_note,
    delete_note,
    get_notes,
    list_notes,
    patch_note,
    restore_note,
    update_note,
)
from memory.store.projects import create_project, list_projects, rename_project, rename_tag
from memory.store.recall import get_changes_since, get_context, search_notes
from memory.store.team import (
    add_screening_rule,
    delete_screening_rule,
    get_usage,
    list_audit_events,
    list_screening_rules,
)
from memory.store.transfer import export_project, import_project

__all__ = [
    "add_screening_rule",
    "checkpoint",
    "create_note",
    "create_project",
    "delete_note",
    "delete_screening_rule",
    "export_project",
    "get_changes_since",
    "get_context",
    "get_note_revision",
    "get_notes",
    "get_usage",
    "import_project",
    "list_audit_events",
    "list_note_revisions",
    "list_notes",
    "list_projects",
    "list_screening_rules",
    "patch_note",
    "relate_notes",
    "remember",
    "rename_project",
    "rename_tag",
    "restore_note",
    "search_notes",
    "update_note",
]
