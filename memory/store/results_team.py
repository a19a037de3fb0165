"""What the store answers for transfer, the team's plan and keys, and errors (see memory.store.results
for the pattern every shape follows)."""

# No `from __future__ import annotations`: TypedDict reads NotRequired from evaluated annotations only,
# and __required_keys__ is what the schema and the tests trust.

from typing import Annotated, Any, Literal, TypedDict

from memory import inputs
from memory.store.results import NOTE_ID, Doc, Project, When

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
        list[dict[str, Any]], Doc("Every note the caller can see, deleted ones too, with revisions.", [{}])
    ]
    links: Annotated[list[dict[str, Any]], Doc("Links between those notes.", [{}])]


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
