"""What the store answers for the review pages: conflicts, one note's history of supersession, the
team overview and bulk edits (see memory.shapes.results for the pattern every shape follows)."""

# No `from __future__ import annotations`: TypedDict reads NotRequired from evaluated annotations only,
# and __required_keys__ is what the schema and the tests trust.
from typing import Annotated, Literal, TypedDict

from memory import inputs
from memory.shapes.results import NOTE_ID, Doc, Note, Project, When

# ------------------------------------------------------------------------------------------- conflicts


class ConflictSide(TypedDict):
    id: Annotated[str, Doc("The note's id.", NOTE_ID)]
    project: Annotated[str, Doc("The note's project.", "payments")]
    title: Annotated[str, Doc("The note's title.", "Refunds via Stripe")]
    excerpt: Annotated[str, Doc("The start of the body.", "Refunds go straight to Stripe.")]
    type: Annotated[str, Doc("The note's type.", "decision", choices=inputs.NOTE_TYPES)]
    status: Annotated[str, Doc("The note's status.", "disputed", choices=inputs.NOTE_STATUSES)]
    version: Annotated[int, Doc("The version the reviewer saw.", 2)]
    author: Annotated[str | None, Doc("Who wrote it.", "mia@acme.test")]
    source: Annotated[str, Doc("The client that wrote it.", "claude-code")]
    last_edited_client: Annotated[str, Doc("The client that last changed it.", "cursor")]
    updated_at: Annotated[str, When("When it last changed.")]


class Conflict(TypedDict):
    kind: Annotated[
        str,
        Doc("What makes it a conflict.", "contradicts", choices=("contradicts", "supersession", "disputed")),
    ]
    project: Annotated[str, Doc("The project of note A.", "payments")]
    reason: Annotated[str, Doc("The conflict in words.", "n_a contradicts n_b")]
    a: Annotated[ConflictSide, Doc("Note A.")]
    b: Annotated[ConflictSide | None, Doc("Note B; null for a note disputed on its own.")]
    resolutions: Annotated[list[str], Doc("The resolutions that apply.", ["a_supersedes_b"])]
    updated_at: Annotated[str, When("When either note last changed.")]


class ConflictPage(TypedDict):
    conflicts: Annotated[list[Conflict], Doc("Open conflicts, most recently changed first.")]
    total: Annotated[int, Doc("How many are open.", 3)]
    next_offset: Annotated[int | None, Doc("Pass as `offset` for the next page.", 25)]


class ConflictResolved(TypedDict):
    status: Annotated[Literal["resolved"], Doc("What happened.", "resolved")]
    resolution: Annotated[str, Doc("The resolution applied.", "a_supersedes_b", choices=inputs.RESOLUTIONS)]
    a: Annotated[Note, Doc("Note A as it is now, without its body.")]
    b: Annotated[Note | None, Doc("Note B as it is now, without its body.")]
    links_removed: Annotated[int, Doc("The contradicts links removed.", 1)]


# ------------------------------------------------------------------------------------------- one note


class ChainEntry(TypedDict):
    id: Annotated[str, Doc("The note's id.", NOTE_ID)]
    project: Annotated[str, Doc("The note's project.", "payments")]
    title: Annotated[str, Doc("The note's title.", "Refunds via the ledger")]
    status: Annotated[str, Doc("The note's status.", "superseded", choices=inputs.NOTE_STATUSES)]
    version: Annotated[int, Doc("The note's version.", 3)]
    updated_at: Annotated[str, When("When it last changed.")]
    deleted: Annotated[bool, Doc("Whether it is deleted.", False)]


class NoteDetails(TypedDict):
    note: Annotated[Note, Doc("The note with its body.")]
    author: Annotated[str | None, Doc("Who wrote it.", "mia@acme.test")]
    last_edited_by: Annotated[str | None, Doc("Who last changed it.", "olivia@acme.test")]
    last_edited_client: Annotated[str, Doc("The client of the last change.", "cursor")]
    delete_reason: Annotated[str | None, Doc("Why it was deleted, for a deleted note.", None)]
    replaced: Annotated[list[ChainEntry], Doc("The notes it replaced, nearest first.")]
    replaced_more: Annotated[bool, Doc("Whether that chain was cut.", False)]
    replaced_by: Annotated[list[ChainEntry], Doc("The notes that replaced it, nearest first.")]
    replaced_by_more: Annotated[bool, Doc("Whether that chain was cut.", False)]


# ------------------------------------------------------------------------------------------- overview


class ConflictCounts(TypedDict):
    disputed: Annotated[int, Doc("Disputed notes.", 1)]
    contradictions: Annotated[int, Doc("Contradicts links between live notes.", 2)]


class ConflictTotals(ConflictCounts):
    total: Annotated[int, Doc("Both together.", 3)]


class ProjectOverview(Project):
    by_type: Annotated[dict[str, int], Doc("Live notes of each type, most first.", {"decision": 4})]
    by_status: Annotated[dict[str, int], Doc("Live notes of each status, most first.", {"current": 9})]
    conflicts: Annotated[ConflictCounts, Doc("The project's open conflicts.")]


class LatestChange(TypedDict):
    id: Annotated[str, Doc("The note's id.", NOTE_ID)]
    project: Annotated[str, Doc("The note's project.", "payments")]
    title: Annotated[str, Doc("The note's title.", "Refunds via the ledger")]
    type: Annotated[str, Doc("The note's type.", "decision", choices=inputs.NOTE_TYPES)]
    status: Annotated[str, Doc("The note's status.", "current", choices=inputs.NOTE_STATUSES)]
    version: Annotated[int, Doc("The note's version.", 2)]
    change: Annotated[Literal["created", "updated", "deleted"], Doc("What happened last.", "updated")]
    by: Annotated[str, Doc("Who made the change.", "Mia")]
    client: Annotated[str, Doc("Through which client.", "claude-code")]
    updated_at: Annotated[str, When("When.")]


class ClientCount(TypedDict):
    client: Annotated[str, Doc("The client.", "claude-code")]
    notes: Annotated[int, Doc("Notes it created today.", 5)]


class CreatedToday(TypedDict):
    id: Annotated[str, Doc("The note's id.", NOTE_ID)]
    project: Annotated[str, Doc("The note's project.", "payments")]
    title: Annotated[str, Doc("The note's title.", "Refunds via the ledger")]
    type: Annotated[str, Doc("The note's type.", "decision", choices=inputs.NOTE_TYPES)]
    client: Annotated[str, Doc("The client that created it.", "claude-code")]
    created_at: Annotated[str, When("When.")]


class Today(TypedDict):
    since: Annotated[str, When("Midnight, in the server's time zone.")]
    notes: Annotated[int, Doc("Notes agents created since.", 7)]
    by_client: Annotated[list[ClientCount], Doc("Those notes by client, most first.")]
    latest: Annotated[list[CreatedToday], Doc("The newest of them.")]


class ReviewItem(TypedDict):
    id: Annotated[str, Doc("The note's id.", NOTE_ID)]
    project: Annotated[str, Doc("The note's project.", "payments")]
    title: Annotated[str, Doc("The note's title.", "Invoices round half-even")]
    commit: Annotated[str, Doc("The commit that touched its code.", "9f2c1e4")]
    flagged_at: Annotated[str, When("When the change was reported.")]


class TeamOverview(TypedDict):
    projects: Annotated[list[ProjectOverview], Doc("The visible projects, by name.")]
    conflicts: Annotated[ConflictTotals, Doc("Open conflicts in all projects.")]
    latest_changes: Annotated[list[LatestChange], Doc("The latest note changes, newest first.")]
    today: Annotated[Today, Doc("What agents wrote today.")]
    needs_review: Annotated[
        list[ReviewItem], Doc("Notes whose code changed since they were written, newest flag first.")
    ]


# ------------------------------------------------------------------------------------------------ bulk


class BulkFailure(TypedDict):
    id: Annotated[str, Doc("The note's id.", NOTE_ID)]
    code: Annotated[str, Doc("The error's code.", "version_conflict")]
    message: Annotated[str, Doc("What happened.", "Note n_x is at version 3, not 2.")]


class BulkUpdated(TypedDict):
    project: Annotated[str, Doc("The project's slug.", "payments")]
    action: Annotated[str, Doc("The action applied.", "retag", choices=inputs.BULK_ACTIONS)]
    updated: Annotated[list[str], Doc("The notes changed.", [NOTE_ID])]
    unchanged: Annotated[list[str], Doc("The notes already in the wanted state.", [])]
    failed: Annotated[list[BulkFailure], Doc("Each note left as it was, and why.")]
