"""What each endpoint answers, for the schema only: the views return the store's own dicts unchanged
(the shapes of the tool contract), and these serializers describe them. The fuzz run checks every
response against them, so a description that drifts from the store fails the tests."""

from __future__ import annotations

from rest_framework import serializers

from api.fields import Out
from memory import inputs

NOTE_ID = "n_7Kx2aQ9mP4sT8wZ1"
TIME = "2026-11-30T12:00:00Z"


class Shape(serializers.Serializer):
    pass


# ---------------------------------------------------------------------------------------------- errors


class ErrorDetail(Shape):
    code = Out.text(
        "What went wrong: invalid_argument, unauthenticated, forbidden, not_found, version_conflict, "
        "conflict, plan_limit, screened, rate_limited, method_not_allowed, not_acceptable, "
        "unsupported_media_type or internal.",
        "not_found",
    )
    message = Out.text(
        "What happened and how to fix it.",
        "No note 'n_x' is visible to this credential. Find ids by searching.",
    )


class Error(Shape):
    error = Out.one(
        ErrorDetail, "The error; codes may add fields (versions, field and family, upgrade_url…)."
    )


# ---------------------------------------------------------------------------------------------- notes


class Note(Shape):
    id = Out.text("The note's opaque id.", NOTE_ID)
    project = Out.text("The slug of the note's project.", "payments")
    type = Out.choice(inputs.NOTE_TYPES, "The note's type.", "fact")
    status = Out.choice(inputs.NOTE_STATUSES, "The note's status.", "current")
    title = Out.text("The note's title.", "Webhooks retry")
    version = Out.integer("Increases on every edit; the ETag of the note.", 1)
    tags = Out.texts("The note's tags.", ["webhooks"])
    importance = Out.number("How much the note matters, 0 to 1.", 0.5)
    visibility = Out.choice(inputs.VISIBILITIES, "team or private.", "team")
    source = Out.text("The client that wrote it.", "claude-code")
    created_at = Out.time("When the note was created.")
    updated_at = Out.time("When the note last changed.")
    body = Out.text(
        "The Markdown body, where bodies are included.", "Stripe retries 3 times.", required=False
    )
    body_chars = Out.integer("Length of the body, where the body is left out.", 24, required=False)
    superseded_by = Out.text(
        "The note that replaced this one (null: one the caller cannot see).",
        NOTE_ID,
        required=False,
        nullable=True,
    )
    supersedes = Out.texts("The notes this one replaced.", [NOTE_ID], required=False)
    deleted_at = Out.time("When the note was soft-deleted.", required=False)


class NoteResult(Shape):
    note = Out.one(Note, "The note.")


class NoteList(Shape):
    project = Out.text("The project's slug.", "payments")
    notes = Out.many(Note, "One page of notes, without bodies.")
    total = Out.integer("How many notes match the filters.", 120)
    next_cursor = Out.text(
        "Pass as `cursor` for the next page; null on the last page.", "eyJ2IjoxfQ:1v2x", nullable=True
    )


class NotesBatch(Shape):
    notes = Out.many(Note, "The notes found, in the order asked.")
    missing = Out.texts("Ids not found or not visible.", ["n_DoesNotExist0000"])


class NoteStatusResult(Shape):
    status = Out.choice(("deleted", "restored"), "What happened.", "deleted")
    note = Out.one(Note, "The note, without its body.")


class RevisionRow(Shape):
    version = Out.integer("The version this revision was.", 1)
    title = Out.text("The title at that version.", "Webhooks retry")
    body_chars = Out.integer("Length of the body at that version.", 24)
    edited_by = Out.text("Who made that version.", "mia@acme.test", nullable=True)
    created_at = Out.time("When that version was made.")
    body = Out.text("The body at that version (include_body).", "Stripe retries 3 times.", required=False)


class RevisionList(Shape):
    id = Out.text("The note's id.", NOTE_ID)
    current_version = Out.integer("The note's current version.", 3)
    revisions = Out.many(RevisionRow, "Earlier versions, newest first.")


class Revision(Shape):
    id = Out.text("The note's id.", NOTE_ID)
    version = Out.integer("The version.", 1)
    current = Out.flag("Whether this is the current version.", False)
    type = Out.choice(inputs.NOTE_TYPES, "The type at that version.", "fact")
    status = Out.choice(inputs.NOTE_STATUSES, "The status at that version.", "current")
    title = Out.text("The title at that version.", "Webhooks retry")
    body = Out.text("The body at that version.", "Stripe retries 3 times.")
    tags = Out.texts("The tags at that version.", ["webhooks"])
    importance = Out.number("The importance at that version.", 0.5)
    edited_by = Out.text("Who made that version.", "mia@acme.test", nullable=True)
    created_at = Out.time("When that version was made.")


class RevisionResult(Shape):
    revision = Out.one(Revision, "The revision in full.")


class RevisionRestored(Shape):
    status = Out.choice(("restored",), "What happened.", "restored")
    restored_version = Out.integer("The version whose content is current again.", 1)
    note = Out.one(Note, "The note at its new version.")


class LinkOut(Shape):
    to_id = Out.text("The note linked to.", NOTE_ID)
    kind = Out.choice(inputs.LINK_KINDS, "The kind of link.", "depends_on")
    title = Out.text("The linked note's title.", "Ledger service")
    created_at = Out.time("When the link was made.")


class LinkIn(Shape):
    from_id = Out.text("The note linking here.", NOTE_ID)
    kind = Out.choice(inputs.LINK_KINDS, "The kind of link.", "contradicts")
    title = Out.text("The linking note's title.", "Refunds via Stripe")
    created_at = Out.time("When the link was made.")


class LinkList(Shape):
    id = Out.text("The note's id.", NOTE_ID)
    outbound = Out.many(LinkOut, "Links from this note.")
    inbound = Out.many(LinkIn, "Links to this note.")


class Link(Shape):
    from_id = Out.text("The linking note.", NOTE_ID)
    to_id = Out.text("The linked note.", "n_9Qw3eR5tY7uI1oP2")
    kind = Out.choice(inputs.LINK_KINDS, "The kind of link.", "depends_on")


class LinkResult(Shape):
    status = Out.choice(("created", "exists", "removed", "absent"), "What happened.", "created")
    link = Out.one(Link, "The link.")


# --------------------------------------------------------------------------------------------- projects


class Project(Shape):
    slug = Out.text("The project's slug.", "payments")
    name = Out.text("The project's name.", "Payments API")
    summary = Out.text("What the project is.", "Card payments and refunds.")
    notes = Out.integer("Notes the caller can see.", 42, required=False)


class ProjectDetail(Project):
    agent_instructions = Out.text("Instructions agents get first.", "Amounts are integers in cents.")
    default_context_budget = Out.integer("get_context's budget when none is given.", 2000, nullable=True)
    created_at = Out.time("When the project was created.")
    updated_at = Out.time("When the project last changed.")


class ProjectResult(Shape):
    project = Out.one(Project, "The project.")


class ProjectDetailResult(Shape):
    project = Out.one(ProjectDetail, "The project with its texts.")


class ProjectList(Shape):
    projects = Out.many(Project, "Projects visible to the credential, by slug.")


class TagRenamed(Shape):
    project = Out.text("The project's slug.", "payments")
    old = Out.text("The old tag.", "db")
    new = Out.text("The new tag.", "database")
    notes_updated = Out.integer("Notes whose tags changed.", 4)


# ---------------------------------------------------------------------------------------------- capture


class Remembered(Shape):
    status = Out.choice(("created", "updated", "duplicate"), "What remember did.", "created")
    note = Out.one(Note, "The stored note, or the existing one it matched.")
    message = Out.text(
        "What to check next, when there is something.", "Stored. Check the neighbours.", required=False
    )
    review_required = Out.flag("Whether neighbours or similar notes need a look.", True, required=False)
    neighbours = Out.many(Shape, "Same-type notes that might contradict it.", required=False)
    similar = Out.many(Shape, "Notes of very similar meaning.", required=False)
    superseded = Out.texts("Notes this one replaced.", [NOTE_ID], required=False)


class CheckpointItem(Shape):
    kind = Out.choice(
        ("decisions", "open_items", "failed_approaches"), "Which list the item came from.", "decisions"
    )
    status = Out.choice(
        ("created", "updated", "duplicate", "conflict"), "What remember did with it.", "created"
    )
    id = Out.text("The note it was stored as, or the one it matched.", NOTE_ID)
    message = Out.text("Why, for a conflict.", "Nothing stored: this contradicts note n_x.", required=False)


class Checkpointed(Shape):
    handoff = Out.one(Note, "The handoff note holding the whole checkpoint.")
    items = Out.many(CheckpointItem, "Each decision, open item and failed approach as its own note.")


# ----------------------------------------------------------------------------------------------- recall


class ContextProject(Shape):
    slug = Out.text("The project's slug.", "payments")
    name = Out.text("The project's name.", "Payments API")
    summary = Out.text("What the project is.", "Card payments and refunds.")
    agent_instructions = Out.text("Instructions to follow.", "Amounts are integers in cents.")


class ContextEntry(Shape):
    id = Out.text("The note's id.", NOTE_ID)
    title = Out.text("The note's title.", "Amounts in cents")
    excerpt = Out.text("The start of the body, where it adds to the title.", "Never floats.", required=False)
    type = Out.choice(inputs.NOTE_TYPES, "The type (relevant and recent_changes).", "fact", required=False)
    status = Out.choice(inputs.NOTE_STATUSES, "The status, when not current.", "disputed", required=False)
    reason = Out.text("Why it is a conflict.", "disputed", required=False)
    score = Out.number("Ranking score (deep).", 0.82, required=False)
    version = Out.integer("The note's version (deep).", 2, required=False)
    updated_at = Out.time("When it last changed (deep).", required=False)


class ContextSections(Shape):
    constraints = Out.many(ContextEntry, "Rules that must hold.", required=False)
    conflicts = Out.many(ContextEntry, "Disputes and unfinished supersessions.", required=False)
    decisions = Out.many(ContextEntry, "Decisions in force.", required=False)
    architecture = Out.many(ContextEntry, "How things are built.", required=False)
    failed_approaches = Out.many(ContextEntry, "What did not work.", required=False)
    status = Out.many(ContextEntry, "Status and handoffs.", required=False)
    relevant = Out.many(ContextEntry, "What matches the query.", required=False)
    open_items = Out.many(ContextEntry, "Tasks still open.", required=False)
    recent_changes = Out.many(ContextEntry, "Recently changed notes.", required=False)


class Omitted(Shape):
    id = Out.text("A note left out for the budget.", NOTE_ID)
    section = Out.text("The section it would be in.", "decisions")


class ContextMeta(Shape):
    budget = Out.integer("The token budget used.", 2000)
    estimated_tokens = Out.integer("The response's estimated tokens (never above the budget).", 1834)
    detail = Out.choice(inputs.DETAIL_LEVELS, "The detail level.", "balanced")
    omitted = Out.many(Omitted, "Notes left out, while their ids fit.")
    omitted_count = Out.integer("How many notes were left out in all.", 3)
    search_mode = Out.text(
        "How the query was matched, when one was given.", "fulltext", required=False, nullable=True
    )


class Context(Shape):
    project = Out.one(ContextProject, "The project header.")
    sections = Out.one(ContextSections, "The packed sections; empty ones are left out.")
    meta = Out.one(ContextMeta, "Budget, spend and what was left out.")


class Change(Shape):
    id = Out.text("The note's id.", NOTE_ID)
    change = Out.choice(("created", "updated", "deleted"), "What is proven to have happened.", "updated")
    version = Out.integer("The note's version now.", 3)
    type = Out.choice(inputs.NOTE_TYPES, "The note's type.", "decision")
    status = Out.choice(inputs.NOTE_STATUSES, "The note's status.", "current")
    title = Out.text("The note's title.", "Refunds via the ledger")
    excerpt = Out.text("The start of the body.", "Refunds go through the ledger service.")
    body_chars = Out.integer("Length of the body.", 58)
    updated_at = Out.time("When it changed.")


class Changes(Shape):
    changes = Out.many(Change, "Changes, oldest first.")
    has_more = Out.flag("Whether another page follows: keep paging while true.", False)
    cursor = Out.text("Pass as `cursor` to continue; keep it after the last page.", "eyJ2IjoyfQ:1v2x")


class SearchResult(Shape):
    id = Out.text("The note's id.", NOTE_ID)
    project = Out.text("The note's project.", "payments")
    title = Out.text("The note's title.", "Webhooks retry")
    type = Out.choice(inputs.NOTE_TYPES, "The note's type.", "fact")
    status = Out.choice(inputs.NOTE_STATUSES, "The note's status.", "current")
    snippet = Out.text("The part of the body that matched.", "…retried 3 times with backoff…")
    body_chars = Out.integer("Length of the body.", 48)
    score = Out.number("Ranking score.", 0.71)
    updated_at = Out.time("When it last changed.")
    body = Out.text("The full body (include_body).", "Stripe webhooks are retried 3 times.", required=False)


class SearchResults(Shape):
    results = Out.many(SearchResult, "Best first.")
    search_mode = Out.choice(
        ("vector", "scan", "fulltext", "substring"), "How the query was matched.", "fulltext"
    )


# --------------------------------------------------------------------------------------- transfer, team


class Counts(Shape):
    notes = Out.integer("Notes.", 12)
    revisions = Out.integer("Revisions.", 30)
    links = Out.integer("Links.", 4)


class Imported(Shape):
    project = Out.one(Project, "The new project.")
    imported = Out.one(Counts, "What was written.")
    id_map = Out.mapping("Each old note id and its new id.", {"n_old0000000000000": NOTE_ID})


class ImportDryRun(Shape):
    dry_run = Out.flag("Always true: nothing was written.", True)
    project = Out.one(Project, "The project that would be created.")
    would_import = Out.one(Counts, "What would be written.")


class ExportDocument(Shape):
    format = Out.text("Always knownbase-export.", "knownbase-export")
    version = Out.integer("The document format version.", 1)
    exported_at = Out.time("When it was exported.")
    project = Out.mapping("The project's fields.", {"slug": "payments", "name": "Payments API"})
    notes = Out.many(Shape, "Every note the caller can see, deleted ones too, with revisions.")
    links = Out.many(Shape, "Links between those notes.")


class Plan(Shape):
    code = Out.text("The plan's code.", "developer")
    name = Out.text("The plan's name.", "Developer")


class Usage(Shape):
    plan = Out.one(Plan, "The team's plan.")
    caps = Out.mapping("Each cap of the plan.", {"projects": 10, "notes": 5000})
    usage = Out.mapping("What the team uses of each cap.", {"projects": 2, "notes": 120})
    upgrade_url = Out.text("Where to upgrade the plan.", "https://knownbase.example/billing/")


class ApiKey(Shape):
    id = Out.text("The key's public prefix: revoke it by this id.", "kb_3f9a1c2d4e5b6a7c")
    name = Out.text("The key's label.", "CI pipeline")
    user = Out.text("Who the key acts for.", "olivia@acme.test")
    project = Out.text("The project the key is narrowed to; null for team-wide.", "payments", nullable=True)
    read_only = Out.flag("Whether the key may only read.", False)
    created_at = Out.time("When the key was created.")
    expires_at = Out.time("When it stops working; null for never.", nullable=True)
    last_used_at = Out.time("When it was last used.", nullable=True)
    revoked_at = Out.time("When it was revoked.", nullable=True)


class ApiKeyCreated(Shape):
    api_key = Out.one(ApiKey, "The new key.")
    key = Out.text("The secret key itself: shown once, never again.", "kb_3f9a1c2d4e5b6a7cXyZ…")


class ApiKeyList(Shape):
    api_keys = Out.many(ApiKey, "The team's usable keys, newest first.")


class ApiKeyRevoked(Shape):
    status = Out.choice(("revoked",), "What happened.", "revoked")
    api_key = Out.one(ApiKey, "The key.")
