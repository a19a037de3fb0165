"""What the store answers for transfer, the team's plan and keys, and errors (see memory.shapes.results
for the pattern every shape follows)."""

# No `from __future__ import annotations`: TypedDict reads NotRequired from evaluated annotations only,
# and __required_keys__ is what the schema and the tests trust.

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from memory import inputs
from memory.shapes.results import NOTE_ID, OTHER_NOTE_ID, Doc, Project, When

# --------------------------------------------------------------------------------------------- transfer


class Counts(TypedDict):
    notes: Annotated[int, Doc("Notes.", 12)]
    revisions: Annotated[int, Doc("Revisions.", 30)]
    links: Annotated[int, Doc("Links.", 4)]


class Imported(TypedDict):
    project: Annotated[Project, Doc("The new project.")]
    imported: Annotated[Counts, Doc("What was written.")]
    id_map: Annotated[
        dict[str, str], Doc("Each old note id and its new id.", {"n_old0000000000000": NOTE_ID})
    ]


class ImportDryRun(TypedDict):
    dry_run: Annotated[Literal[True], Doc("Always true: nothing was written.", True)]
    project: Annotated[Project, Doc("The project that would be created.")]
    would_import: Annotated[Counts, Doc("What would be written.")]
    by_status: Annotated[
        dict[str, int],
        Doc("The notes by status (current first; deleted ones as deleted).", {"current": 9, "superseded": 2}),
    ]


MEMORY_IMPORT_OUTCOMES = ("created", "merged", "duplicate", "conflict", "refused", "over_cap", "invalid")


class MemoryImportCounts(TypedDict):
    created: Annotated[int, Doc("New notes.", 14)]
    merged: Annotated[int, Doc("Restatements merged into an existing note (kept as its new text).", 1)]
    duplicate: Annotated[int, Doc("Already known: nothing stored.", 3)]
    conflict: Annotated[int, Doc("Contradict a current note: left out, the note named.", 1)]
    refused: Annotated[int, Doc("Look like a secret: never stored.", 0)]
    over_cap: Annotated[int, Doc("Past the plan's note cap: left out.", 0)]
    invalid: Annotated[int, Doc("Not a valid note (e.g. a tag or glob too long): left out.", 0)]


class ImportedMemory(TypedDict):
    origin: Annotated[str, Doc("The file and line (or record) it was read from.", "CLAUDE.md:12")]
    type: Annotated[str, Doc("The note's type.", "constraint", inputs.NOTE_TYPES)]
    title: Annotated[str, Doc("Its title.", "Amounts in cents")]
    content: Annotated[
        str, Doc("Its text, cut at 300 characters; withheld when refused.", "Never floats for money.")
    ]
    paths: Annotated[list[str], Doc("The globs it is bound to.", ["billing/**"])]
    outcome: Annotated[
        str,
        Doc(
            "created, merged, duplicate, conflict, refused, over_cap or invalid.",
            "created",
            MEMORY_IMPORT_OUTCOMES,
        ),
    ]
    note: NotRequired[
        Annotated[str, Doc("The note created, merged into, duplicated or contradicted.", NOTE_ID)]
    ]
    message: NotRequired[Annotated[str, Doc("Why it was left out, and what to do.", "Contradicts …")]]


class UnreadablePart(TypedDict):
    file: Annotated[str, Doc("The file (and line or record).", "memory.jsonl:4")]
    reason: Annotated[str, Doc("Why it could not be read.", "is not valid JSON")]


class MemoryImport(TypedDict):
    project: Annotated[str, Doc("The project's slug.", "payments")]
    format: Annotated[
        str,
        Doc(
            "The format read.",
            "rules",
            ("rules", "basic-memory", "mcp-memory-service", "memory-graph", "mem0"),
        ),
    ]
    dry_run: Annotated[bool, Doc("True for a preview: nothing was written.", False)]
    counts: Annotated[MemoryImportCounts, Doc("How many notes had each outcome.")]
    notes: Annotated[list[ImportedMemory], Doc("Every note read, in file order, with its outcome.")]
    unreadable: Annotated[list[UnreadablePart], Doc("What could not be read, and why.")]


class ExportDocument(TypedDict):
    """The export file itself: its notes and links are the versioned file format that the importer
    validates field by field (memory.transfer), kept open here so that the format has one owner."""

    format: Annotated[str, Doc("Always knownbase-export.", "knownbase-export")]
    version: Annotated[int, Doc("The document format version.", 1)]
    exported_at: Annotated[str, When("When it was exported.")]
    project: Annotated[
        dict[str, Any], Doc("The project's fields.", {"slug": "payments", "name": "Payments API"})
    ]
    notes: Annotated[
        list[dict[str, Any]],
        Doc(
            "Every note the caller can see, deleted ones too, with revisions.",
            [{"id": NOTE_ID, "title": "Webhooks retry", "revisions": []}],
        ),
    ]
    links: Annotated[
        list[dict[str, Any]],
        Doc("Links between those notes.", [{"from": NOTE_ID, "to": OTHER_NOTE_ID, "kind": "depends_on"}]),
    ]


class ExportLink(TypedDict):
    """export_project's answer (MCP): where to download the export, and what it holds."""

    project: Annotated[str, Doc("The project's slug.", "payments")]
    format: Annotated[str, Doc("The file's format.", "json", choices=inputs.EXPORT_FORMATS)]
    counts: Annotated[Counts, Doc("What the export holds.")]
    url: Annotated[str, Doc("A signed download link.", "https://knownbase.example/export/payments?s=…")]
    expires_at: Annotated[str | None, When("When the link stops working.")]


# ------------------------------------------------------------------------------------------------- team


class Plan(TypedDict):
    code: Annotated[str, Doc("The plan's code.", "developer")]
    name: Annotated[str, Doc("The plan's name.", "Developer")]


class Usage(TypedDict):
    plan: Annotated[Plan, Doc("The team's plan.")]
    caps: Annotated[dict[str, int | bool], Doc("Each cap of the plan.", {"projects": 10, "notes": 5000})]
    usage: Annotated[dict[str, int], Doc("What the team uses of each cap.", {"projects": 2, "notes": 120})]
    # billing builds this one (billing.standing) and sits below the store, so it stays a mapping.
    subscription: Annotated[
        dict[str, Any],
        Doc("The subscription behind the caps; `message` when someone should act.", {"plan": "developer"}),
    ]
    upgrade_url: Annotated[str, Doc("Where to upgrade the plan.", "https://knownbase.example/billing/")]


class ApiKey(TypedDict):
    id: Annotated[str, Doc("The key's public prefix: revoke it by this id.", "kb_3f9a1c2d4e5b6a7c")]
    name: Annotated[str, Doc("The key's label.", "CI pipeline")]
    user: Annotated[str, Doc("Who the key acts for.", "olivia@acme.test")]
    project: Annotated[str | None, Doc("The project the key is narrowed to; null for team-wide.", "payments")]
    read_only: Annotated[bool, Doc("Whether the key may only read.", False)]
    created_at: Annotated[str, When("When the key was created.")]
    expires_at: Annotated[str | None, When("When it stops working; null for never.")]
    last_used_at: Annotated[str | None, When("When it was last used.")]
    revoked_at: Annotated[str | None, When("When it was revoked.")]


class ApiKeyCreated(TypedDict):
    api_key: Annotated[ApiKey, Doc("The new key.")]
    key: Annotated[str, Doc("The secret key itself: shown once, never again.", "kb_3f9a1c2d4e5b6a7cXyZ…")]


class ApiKeyList(TypedDict):
    api_keys: Annotated[list[ApiKey], Doc("The team's usable keys, newest first.")]


class ApiKeyRevoked(TypedDict):
    status: Annotated[Literal["revoked"], Doc("What happened.", "revoked")]
    api_key: Annotated[ApiKey, Doc("The key.")]


# ----------------------------------------------------------------------------------------------- errors


class ErrorDetail(TypedDict):
    """A StoreError as every entry point answers it; codes may add fields (versions, field and
    family, upgrade_url…), which are extra keys beside these two."""

    code: Annotated[
        str,
        Doc(
            "What went wrong: invalid_argument, unauthenticated, forbidden, not_found, version_conflict, "
            "conflict, plan_limit, screened, rate_limited, method_not_allowed, not_acceptable, "
            "unsupported_media_type or internal.",
            "not_found",
        ),
    ]
    message: Annotated[
        str,
        Doc(
            "What happened and how to fix it.",
            "No note 'n_x' is visible to this credential. Find ids by searching.",
        ),
    ]


class Error(TypedDict):
    error: Annotated[
        ErrorDetail, Doc("The error; codes may add fields (versions, field and family, upgrade_url…).")
    ]


# ------------------------------------------------------------------------------ pages of the web only


class TransferJob(TypedDict):
    id: Annotated[str, Doc("The job's id.", "tj_4Gx8kQ2mP7")]
    kind: Annotated[str, Doc("What the job does.", "export", choices=("export", "import"))]
    format: Annotated[str, Doc("The file's format.", "json")]
    status: Annotated[str, Doc("staged, queued, running, succeeded or failed.", "running")]
    progress: Annotated[int, Doc("Notes done.", 120)]
    total: Annotated[int, Doc("Notes in all.", 400)]
    percent: Annotated[int, Doc("Progress, 0 to 100.", 30)]
    finished: Annotated[bool, Doc("Whether the job has ended.", False)]
    project: Annotated[str | None, Doc("The project's slug, once there is one.", "payments")]
    # A JSON column: the dry run's report while staged, the project and counts once imported.
    result: Annotated[dict[str, Any], Doc("The import's report or outcome.", {})]
    error: Annotated[str, Doc("Why it failed.", "")]
    retryable: Annotated[bool, Doc("Whether retry_transfer_job can run this failed job again.", False)]
    url: Annotated[
        str | None, Doc("A finished export's signed download link.", "https://knownbase.example/exports/…")
    ]
    expires_at: Annotated[str | None, When("When that link stops working.")]
    created_at: Annotated[str, When("When the job was made.")]
    finished_at: Annotated[str | None, When("When it ended.")]


class TransferJobResult(TypedDict):
    job: Annotated[TransferJob, Doc("The job.")]


class ExportReady(ExportLink):
    """start_export's answer for a small project: the link at once."""

    job: Annotated[None, Doc("No job: the link is ready.")]


class ExportQueued(TypedDict):
    """start_export's answer for a large project: a background job to follow with transfer_job."""

    project: Annotated[str, Doc("The project's slug.", "payments")]
    format: Annotated[str, Doc("The file's format.", "json", choices=inputs.EXPORT_FORMATS)]
    url: Annotated[None, Doc("No link yet: the job's answer carries it when done.")]
    job: Annotated[TransferJob, Doc("The background job.")]


class ExportContent(TypedDict):
    project: Annotated[str, Doc("The project's slug.", "payments")]
    format: Annotated[str, Doc("The file's format.", "json", choices=inputs.EXPORT_FORMATS)]
    filename: Annotated[str, Doc("The file's name.", "payments.knownbase.json")]
    content: Annotated[ExportDocument | str, Doc("The JSON document, or the Markdown text.")]


class ContextBrief(TypedDict):
    project: Annotated[str, Doc("The project's slug.", "payments")]
    budget: Annotated[int, Doc("The token budget used.", 2000)]
    estimated_tokens: Annotated[int, Doc("The brief's estimated tokens (never above the budget).", 640)]
    content: Annotated[
        str, Doc("get_context's packing as a Markdown brief.", "# Project brief: Payments API (payments)\n")
    ]


class Rendered(TypedDict):
    project: Annotated[str, Doc("The project's slug.", "payments")]
    target: Annotated[str, Doc("What was rendered.", "agents_md", choices=inputs.RENDER_TARGETS)]
    filename: Annotated[str, Doc("Where the text goes in a repository.", "AGENTS.md")]
    content: Annotated[str, Doc("The section, between its marker comments.")]


class ScreeningRule(TypedDict):
    id: Annotated[str, Doc("The rule's id.", "sr_2kP9")]
    kind: Annotated[str, Doc("pattern or allow.", "pattern")]
    name: Annotated[str, Doc("The rule's label.", "Internal hostnames")]
    value: Annotated[str, Doc("The pattern, or a masked hint of an allowed value.", r"corp\.internal")]
    created_at: Annotated[str, When("When the rule was added.")]


class ScreeningRuleAdded(TypedDict):
    rule: Annotated[ScreeningRule, Doc("The rule.")]
    status: Annotated[Literal["created", "exists"], Doc("What happened.", "created")]


class ScreeningRuleDeleted(TypedDict):
    status: Annotated[Literal["deleted"], Doc("What happened.", "deleted")]
    id: Annotated[str, Doc("The rule's id.", "sr_2kP9")]


class ScreeningRules(TypedDict):
    rules: Annotated[list[ScreeningRule], Doc("The team's rules, by kind and name.")]
    families: Annotated[list[str], Doc("The built-in secret families.", ["aws_access_key"])]


class AuditEvent(TypedDict):
    id: Annotated[str, Doc("The event's id.", "ae_7Hk2")]
    action: Annotated[str, Doc("What was done.", "note.created")]
    actor: Annotated[str | None, Doc("Who did it.", "mia@acme.test")]
    client: Annotated[str, Doc("The client it came through.", "claude-code")]
    auth_method: Annotated[str, Doc("How the actor authenticated.", "api_key")]
    project: Annotated[str | None, Doc("The project's slug at the time.", "payments")]
    object_id: Annotated[str, Doc("What it was done to.", NOTE_ID)]
    # A JSON column whose keys depend on the action.
    detail: Annotated[dict[str, Any], Doc("What else the event records.", {})]
    created_at: Annotated[str, When("When it happened.")]


class AuditEvents(TypedDict):
    events: Annotated[list[AuditEvent], Doc("Newest first.")]
    next_before: Annotated[str | None, Doc("Pass as `before` for the next page.", "ae_7Hk2")]
