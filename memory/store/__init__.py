"""The store boundary: every read and write of projects and notes, for every entry point.

Each function takes the calling Principal first and is classified read or write in memory.registry.
Writes run scope check → plan check → screening → transaction → audit. Results are plain dicts in
the shapes of the tool contract (memory.store.results), shared by MCP, REST and the web. Callers write `store.remember(...)`;
each operation lives in the module of its resource:

- projects: list_projects, get_project, create_project, rename_project, update_project, rename_tag
- capture: remember, checkpoint
- notes: get_notes, get_note, list_notes, create_note, update_note, patch_note, delete_note, restore_note
- details: get_note_details (one note for review: authorship, deletion, supersession chain)
- history: list_note_revisions, get_note_revision, restore_note_revision
- links: relate_notes, list_note_links
- conflicts: list_conflicts, resolve_conflict
- recall: search_notes, get_context, get_changes_since
- transfer: export_project, export_content, import_project, and the jobs a page follows: start_export,
  start_import, confirm_import, transfer_job
- team: get_usage, API keys, screening rules, the audit log
- overview: team_overview (the dashboard)
- bulk: bulk_update_notes
- results, results_team, results_review: the shape of every answer above, as TypedDicts; MCP structured output, REST
  bodies and the OpenAPI schema are derived from them
"""

from memory.store import results, results_review, results_team
from memory.store.bulk import bulk_update_notes
from memory.store.capture import checkpoint, remember
from memory.store.conflicts import list_conflicts, resolve_conflict
from memory.store.details import get_note_details
from memory.store.history import get_note_revision, list_note_revisions, restore_note_revision
from memory.store.links import list_note_links, relate_notes
from memory.store.notes import (
    create_note,
    delete_note,
    get_note,
    get_notes,
    list_notes,
    patch_note,
    restore_note,
    update_note,
)
from memory.store.overview import team_overview
from memory.store.projects import (
    create_project,
    get_project,
    list_projects,
    rename_project,
    rename_tag,
    update_project,
)
from memory.store.recall import get_changes_since, get_context, search_notes
from memory.store.team import (
    add_screening_rule,
    create_api_key,
    delete_screening_rule,
    get_usage,
    list_api_keys,
    list_audit_events,
    list_screening_rules,
    revoke_api_key,
)
from memory.store.transfer import (
    confirm_import,
    export_content,
    export_project,
    import_project,
    start_export,
    start_import,
    transfer_job,
)

__all__ = [
    "add_screening_rule",
    "bulk_update_notes",
    "checkpoint",
    "confirm_import",
    "create_api_key",
    "create_note",
    "create_project",
    "delete_note",
    "delete_screening_rule",
    "export_content",
    "export_project",
    "get_changes_since",
    "get_context",
    "get_note",
    "get_note_details",
    "get_note_revision",
    "get_notes",
    "get_project",
    "get_usage",
    "import_project",
    "list_api_keys",
    "list_audit_events",
    "list_conflicts",
    "list_note_links",
    "list_note_revisions",
    "list_notes",
    "list_projects",
    "list_screening_rules",
    "patch_note",
    "relate_notes",
    "remember",
    "rename_project",
    "rename_tag",
    "resolve_conflict",
    "restore_note",
    "restore_note_revision",
    "results",
    "results_review",
    "results_team",
    "revoke_api_key",
    "search_notes",
    "start_export",
    "start_import",
    "team_overview",
    "transfer_job",
    "update_note",
    "update_project",
]
