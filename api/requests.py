"""What each endpoint accepts: JSON bodies and query strings, field names exactly the store's arguments.

Built from memory.inputs through api.fields; the store validates every value again in full."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers

from api.fields import body as in_body
from api.fields import query as in_query
from memory import inputs
from memory.store import echo

TYPES_EXAMPLE = ["decision", "constraint"]
STATUSES_EXAMPLE = ["current"]
TYPE_DESCRIPTION = "The note's type."
STATUS_DESCRIPTION = "The note's status."
VISIBILITY_DESCRIPTION = "team (everyone in the team) or private (only its author)."
TYPES_DESCRIPTION = "Only notes of these types."
STATUSES_DESCRIPTION = "Only notes with these statuses."
INCLUDE_BODY = "Include each note's full body."
EXPECTED_VERSION = (
    "Refuse (409 version_conflict) unless the note is still at this version. The If-Match header "
    "does the same."
)


class Request(serializers.Serializer):
    """A request's fields; an unknown one is refused, as the MCP tools refuse unknown arguments."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = sorted(str(key) for key in data if key not in self.fields)
            if unknown:
                allowed = ", ".join(self.fields) or "none"
                raise serializers.ValidationError(
                    {"non_field_errors": [f"Unknown field {echo(unknown[0])}. Allowed: {allowed}."]}
                )
        return super().to_internal_value(data)


class Empty(Request):
    pass


# ------------------------------------------------------------------------------------------ projects


class ProjectCreate(Request):
    name = in_body.text(inputs.PROJECT_NAME, "Payments API", required=True)
    slug = in_body.text(
        inputs.PROJECT_SLUG, "payments-api", description="URL name of the project; derived from the name."
    )
    summary = in_body.text(
        inputs.PROJECT_TEXT, "Card payments and refunds.", description="What the project is, in a few lines."
    )
    agent_instructions = in_body.text(
        inputs.PROJECT_TEXT,
        "Amounts are integers in cents.",
        description="Instructions every agent gets first in get_context.",
    )


class ProjectUpdate(Request):
    name = in_body.text(inputs.PROJECT_NAME, "Billing API")
    slug = in_body.text(inputs.PROJECT_SLUG, "billing-api", description="A new URL name for the project.")
    summary = in_body.text(
        inputs.PROJECT_TEXT, "Card payments and refunds.", description="What the project is."
    )
    agent_instructions = in_body.text(
        inputs.PROJECT_TEXT,
        "Amounts are integers in cents.",
        description="Instructions every agent gets first in get_context.",
    )


class TagRename(Request):
    old = in_body.text(inputs.TAG, "db", description="The tag to rename.", required=True)
    new = in_body.text(
        inputs.TAG, "database", description="Its new name (merged if it exists).", required=True
    )


# --------------------------------------------------------------------------------------------- notes

NOTE_PATHS_DESCRIPTION = "Globs of the code the note is about, from the repository root (** spans folders)."
WORK_PATHS_DESCRIPTION = "The files you are working on: notes bound to them rank up."


class NoteListQuery(Request):
    types = in_query.choices(inputs.NOTE_TYPES, TYPES_EXAMPLE, description=TYPES_DESCRIPTION)
    statuses = in_query.choices(inputs.NOTE_STATUSES, STATUSES_EXAMPLE, description=STATUSES_DESCRIPTION)
    tag = in_query.text(inputs.TAG, "db", description="Only notes with this tag.")
    author = in_query.text(inputs.EMAIL, "mia@acme.test", description="Only notes written by this member.")
    source = in_query.text(
        inputs.SOURCE, "claude-code", description="Only notes written through this client."
    )
    updated_after = in_query.text(
        inputs.SINCE, "2026-11-01T00:00:00Z", description="Only notes updated after."
    )
    updated_before = in_query.text(
        inputs.SINCE, "2026-12-01T00:00:00Z", description="Only notes updated before."
    )
    sort = in_query.choice(
        inputs.NOTE_SORTS, "-updated", description="Order: by update time or importance; - for descending."
    )
    limit = in_query.integer(inputs.LIST_LIMIT, 50)
    include_deleted = in_query.flag(False, description="Include soft-deleted notes (restorable).")
    path = in_query.text(
        inputs.PATH_PATTERN,
        "billing/invoice.py",
        description="Only notes bound to a glob matching this file.",
    )
    needs_review = in_query.flag(
        True, description="Only notes flagged (true) or not flagged (false) for review."
    )
    cursor = in_query.text(
        inputs.CURSOR,
        "eyJ2IjoxfQ:1v2x",
        description="next_cursor of the previous page; pass the same filters with it.",
    )


class NotesBatchQuery(Request):
    ids = in_query.text_list(inputs.NOTE_IDS, inputs.NOTE_ID, ["n_7Kx2aQ9mP4sT8wZ1"], required=True)
    include_body = in_query.flag(True, description=INCLUDE_BODY)


class NoteReadQuery(Request):
    include_body = in_query.flag(True, description=INCLUDE_BODY)


class NoteCreate(Request):
    title = in_body.text(inputs.TITLE, "Webhooks retry", required=True)
    body = in_body.text(inputs.BODY, "Stripe webhooks are retried 3 times with backoff.", required=True)
    type = in_body.choice(inputs.NOTE_TYPES, "fact", description=TYPE_DESCRIPTION)
    status = in_body.choice(inputs.NOTE_STATUSES, "current", description=STATUS_DESCRIPTION)
    tags = in_body.text_list(inputs.TAGS, inputs.TAG, ["webhooks", "stripe"])
    importance = in_body.number(inputs.IMPORTANCE, 0.5)
    visibility = in_body.choice(inputs.VISIBILITIES, "team", description=VISIBILITY_DESCRIPTION)
    paths = in_body.text_list(
        inputs.NOTE_PATHS, inputs.PATH_PATTERN, ["billing/**"], description=NOTE_PATHS_DESCRIPTION
    )


class NoteUpdate(Request):
    title = in_body.text(inputs.TITLE, "Webhooks retry 5 times")
    body = in_body.text(inputs.BODY, "Stripe webhooks are retried 5 times with backoff.")
    type = in_body.choice(inputs.NOTE_TYPES, "fact", description=TYPE_DESCRIPTION)
    status = in_body.choice(inputs.NOTE_STATUSES, "historical", description=STATUS_DESCRIPTION)
    tags = in_body.text_list(inputs.TAGS, inputs.TAG, ["webhooks"])
    importance = in_body.number(inputs.IMPORTANCE, 0.7)
    visibility = in_body.choice(inputs.VISIBILITIES, "team", description=VISIBILITY_DESCRIPTION)
    expected_version = in_body.integer(inputs.VERSION, 3, description=EXPECTED_VERSION)
    paths = in_body.text_list(
        inputs.NOTE_PATHS,
        inputs.PATH_PATTERN,
        ["billing/**"],
        description=NOTE_PATHS_DESCRIPTION + " [] unbinds.",
    )


class NotePatch(Request):
    op = in_body.choice(
        inputs.PATCH_OPS,
        "append",
        description="append or prepend `text`, or replace `find` with it.",
        required=True,
    )
    text = in_body.text(
        inputs.BODY, "Retries stop after 24 hours.", description="The text to add.", required=True
    )
    find = in_body.text(
        inputs.BODY,
        "3 times",
        description="For replace: the exact text to replace, occurring once in the body.",
    )
    expected_version = in_body.integer(inputs.VERSION, 3, description=EXPECTED_VERSION)


class NoteDeleteQuery(Request):
    reason = in_query.text(inputs.DELETE_REASON, "Wrong: retries are configured per endpoint.")
    expected_version = in_query.integer(inputs.VERSION, 3, description=EXPECTED_VERSION)


# ------------------------------------------------------------------------------- revisions and links


class RevisionsQuery(Request):
    limit = in_query.integer(inputs.REVISIONS_LIMIT, 20)
    include_body = in_query.flag(False, description="Include each revision's body.")


class RevisionRestore(Request):
    expected_version = in_body.integer(inputs.VERSION, 3, description=EXPECTED_VERSION)


class LinkCreate(Request):
    to_id = in_body.text(
        inputs.NOTE_ID, "n_9Qw3eR5tY7uI1oP2", description="The note this one points at.", required=True
    )
    kind = in_body.choice(
        inputs.LINK_KINDS, "depends_on", description="What the link says about the two notes.", required=True
    )


# ------------------------------------------------------------------------------------- capture


class Remember(Request):
    content = in_body.text(
        inputs.BODY, "Refunds go through the ledger service, never Stripe directly.", required=True
    )
    type = in_body.choice(inputs.NOTE_TYPES, "decision", description=TYPE_DESCRIPTION)
    title = in_body.text(
        inputs.TITLE, "Refunds via the ledger", description="A title; derived from the content when absent."
    )
    tags = in_body.text_list(inputs.TAGS, inputs.TAG, ["refunds"])
    importance = in_body.number(inputs.IMPORTANCE, 0.7)
    supersedes = in_body.text_list(inputs.SUPERSEDES, inputs.NOTE_ID, ["n_9Qw3eR5tY7uI1oP2"])
    force = in_body.flag(False, description="Store even if it contradicts a note (both are true).")
    visibility = in_body.choice(inputs.VISIBILITIES, "team", description=VISIBILITY_DESCRIPTION)
    source = in_body.text(inputs.SOURCE, "ci-pipeline", description="Which client wrote it.")
    paths = in_body.text_list(
        inputs.NOTE_PATHS, inputs.PATH_PATTERN, ["billing/**"], description=NOTE_PATHS_DESCRIPTION
    )


class Checkpoint(Request):
    summary = in_body.text(
        inputs.BODY, "Moved refunds to the ledger service.", description="What was done.", required=True
    )
    decisions = in_body.text_list(
        inputs.CHECKPOINT_ITEMS,
        inputs.BODY,
        ["Refunds go through the ledger."],
        description="Decisions made.",
    )
    open_items = in_body.text_list(
        inputs.CHECKPOINT_ITEMS, inputs.BODY, ["Backfill old refunds."], description="What is left open."
    )
    failed_approaches = in_body.text_list(
        inputs.CHECKPOINT_ITEMS,
        inputs.BODY,
        ["Calling Stripe from the worker timed out."],
        description="What was tried and failed.",
    )
    next_actions = in_body.text_list(
        inputs.CHECKPOINT_ITEMS, inputs.BODY, ["Add a refund dashboard."], description="What comes next."
    )
    paths = in_body.text_list(
        inputs.NOTE_PATHS, inputs.PATH_PATTERN, ["billing/**"], description=NOTE_PATHS_DESCRIPTION
    )


# -------------------------------------------------------------------------------------- recall


class ContextQuery(Request):
    query = in_query.text(
        inputs.QUERY, "add partial refunds", description="What you are about to do: ranks what is relevant."
    )
    detail = in_query.choice(
        inputs.DETAIL_LEVELS, "balanced", description="How much: lean, balanced or deep."
    )
    max_tokens = in_query.integer(inputs.CONTEXT_MAX_TOKENS, 2000)
    types = in_query.choices(inputs.NOTE_TYPES, TYPES_EXAMPLE, description="Only these sections' types.")
    format = in_query.choice(
        inputs.CONTEXT_FORMATS,
        "json",
        description="json (the get_context response), markdown (the same packing as a compact brief, "
        "text/markdown, for session-start hooks that take plain text) or session_start (that brief as "
        'a hook\'s JSON output: {"hookSpecificOutput": {"hookEventName": "SessionStart", '
        '"additionalContext": brief}}, for Gemini CLI).',
    )
    budget = in_query.integer(
        inputs.CONTEXT_MAX_TOKENS, 1500, description="The same as max_tokens (give one of them)."
    )
    paths = in_query.text_list(
        inputs.PATHS_PER_CALL, inputs.PATH_PATTERN, ["billing/invoice.py"], description=WORK_PATHS_DESCRIPTION
    )


class ChangesQuery(Request):
    since = in_query.text(
        inputs.SINCE, "2026-11-30T09:00:00Z", description="Changes after this RFC 3339 time."
    )
    cursor = in_query.text(inputs.CURSOR, "eyJ2IjoyfQ:1v2x", description="The cursor of the previous page.")
    types = in_query.choices(inputs.NOTE_TYPES, TYPES_EXAMPLE, description=TYPES_DESCRIPTION)
    statuses = in_query.choices(inputs.NOTE_STATUSES, STATUSES_EXAMPLE, description=STATUSES_DESCRIPTION)
    limit = in_query.integer(inputs.FEED_LIMIT, 50)
    max_tokens = in_query.integer(inputs.FEED_MAX_TOKENS, 4000)


class SearchQuery(Request):
    query = in_query.text(inputs.QUERY, "webhook retries", description="What to look for.", required=True)
    project = in_query.text(
        inputs.PROJECT_SLUG, "payments", description="Only this project; all visible when absent."
    )
    semantic = in_query.flag(
        True, description="Search by meaning and keywords (hybrid); keywords only when false."
    )
    types = in_query.choices(inputs.NOTE_TYPES, TYPES_EXAMPLE, description=TYPES_DESCRIPTION)
    statuses = in_query.choices(inputs.NOTE_STATUSES, STATUSES_EXAMPLE, description=STATUSES_DESCRIPTION)
    tags = in_query.text_list(
        inputs.TAGS, inputs.TAG, ["webhooks"], description="Only notes with all these tags."
    )
    limit = in_query.integer(inputs.SEARCH_LIMIT, 10)
    include_body = in_query.flag(False, description=INCLUDE_BODY)
    paths = in_query.text_list(
        inputs.PATHS_PER_CALL, inputs.PATH_PATTERN, ["billing/invoice.py"], description=WORK_PATHS_DESCRIPTION
    )


class CodeChange(Request):
    commit = in_body.text(inputs.COMMIT, "9f2c1e4b", required=True)
    paths = in_body.text_list(
        inputs.PATHS_PER_CALL,
        inputs.PATH_PATTERN,
        ["billing/invoice.py"],
        description="The changed files, as `git diff --name-only` prints them.",
        required=True,
    )


# -------------------------------------------------------------------------------- transfer and team


class RenderQuery(Request):
    target = in_query.choice(
        inputs.RENDER_TARGETS,
        "agents_md",
        description="agents_md (an AGENTS.md / CLAUDE.md section) or cursor_rules (a .cursor/rules/*.mdc file).",
    )


class ExportQuery(Request):
    format = in_query.choice(
        inputs.EXPORT_FORMATS, "json", description="json (re-importable) or markdown (readable)."
    )


IMPORT_EXAMPLE: dict[str, Any] = {
    "format": "knownbase-export",
    "version": 1,
    "exported_at": "2026-11-30T12:00:00.000000Z",
    "project": {
        "slug": "payments",
        "name": "Payments API",
        "summary": "",
        "agent_instructions": "",
        "default_context_budget": None,
    },
    "notes": [],
    "links": [],
}


class MemoryImport(Request):
    files = in_body.document(
        {
            "CLAUDE.md": "# Rules\n- Never log card numbers.\n",
            ".cursor/rules/api.mdc": "---\nglobs: api/**\n---\n- Views stay thin.\n",
        },
        description="The files, {path relative to the repository or export root: text}: rules files "
        "(CLAUDE.md, AGENTS.md, .cursor/rules/*.mdc, .claude/rules/*.md, .github/copilot-instructions.md), a "
        "basic-memory project's Markdown, or an mcp-memory-service, reference memory server (JSONL) or Mem0 export.",
    )
    format = in_body.choice(
        inputs.MEMORY_IMPORT_FORMATS, "auto", description="The files' format; auto recognises it."
    )
    dry_run = in_body.flag(
        False, description="Judge every note and report what the import would do, writing nothing."
    )
    skip_refused = in_body.flag(
        False,
        description="Leave out notes that look like secrets (reported as refused) instead of refusing "
        "the whole import.",
    )


class Import(Request):
    document = in_body.document(
        IMPORT_EXAMPLE, description="An export document, as GET …/export?format=json returns it."
    )
    slug = in_body.text(
        inputs.PROJECT_SLUG,
        "payments-copy",
        description="The new project's slug; the document's when absent.",
    )
    name = in_body.text(
        inputs.PROJECT_NAME,
        "Payments (copy)",
        description="The new project's name; the document's when absent.",
    )
    dry_run = in_body.flag(
        False, description="Check everything and report what would be created, writing nothing."
    )


class ApiKeyCreate(Request):
    name = in_body.text(inputs.API_KEY_NAME, "CI pipeline", required=True)
    project = in_body.text(
        inputs.PROJECT_SLUG, "payments", description="Narrow the key to this project; team-wide when absent."
    )
    read_only = in_body.flag(False, description="The key may only read.")
    expires_at = in_body.text(
        inputs.SINCE,
        "2027-01-31T00:00:00Z",
        description="When the key stops working (RFC 3339); never when absent.",
    )
