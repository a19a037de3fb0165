"""What the store answers: every result shape declared once, as a TypedDict.

MCP tools send these objects as their structured content and text, REST views answer them as their
bodies, and the OpenAPI schema is built from these declarations (api.responses), so a field added
to or removed from a shape here changes all three, and tests/memory/store/test_results.py fails if
one of them disagrees.

The pattern, for a new store function:

1. Declare its result here (results_team.py: transfer, plan, keys, errors; results_review.py: the
   review pages' conflicts, details, overview and bulk edits; results_accounts.py: people, teams,
   members, invitations, OAuth connections, billing pages, downloads and staff actions), one
   TypedDict per object. Every field is `Annotated[type, Doc("description", example)]`: the
   description and example are published in the OpenAPI schema. Times are `Annotated[str,
   When("description")]` (RFC 3339, UTC). A key that is only sometimes present is `NotRequired[...]`;
   a value that may be null is `X | None`. A closed set of words is a `Literal[...]`, or
   `Doc(..., choices=inputs.SOMETHING)` when memory.inputs declares the set.
2. Annotate the store function's return with it (`-> NoteResult`); mypy then checks every dict the
   function builds against the declaration.
3. For REST, publish `api.responses.shape(TheResult)` in the view's `ok=` answers: the component
   of the same name is built from the declaration. An MCP tool sends the store's result as it is
   (structured content and the same JSON as text) and needs nothing more.
4. tests/memory/store/test_results.py finds the declarations itself; for a new MCP tool, name its
   store function in TOOL_RESULTS there and call it in the live round, which checks what the tool
   really sends against the declaration.

The MCP tools do not advertise output schemas: built from these declarations they would take about
3,300 more tokens of tools/list (1,900 for the core set), past its budgets (3,000 and 1,200 in all).
"""

# No `from __future__ import annotations`: TypedDict reads NotRequired from evaluated annotations only,
# and __required_keys__ is what the schema and the tests trust.

from dataclasses import dataclass
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from memory import inputs

NOTE_ID = "n_7Kx2aQ9mP4sT8wZ1"
OTHER_NOTE_ID = "n_9Qw3eR5tY7uI1oP2"
TIME = "2026-11-30T12:00:00Z"


@dataclass(frozen=True)
class Doc:
    """A field's description and example, and its allowed words when memory.inputs declares them."""

    description: str
    example: Any = None
    choices: tuple[str, ...] = ()
    time: bool = False


def When(description: str) -> Doc:
    return Doc(description, TIME, time=True)


# ---------------------------------------------------------------------------------------------- notes


class NeedsReview(TypedDict):
    commit: Annotated[str, Doc("The commit that touched the note's code.", "9f2c1e4")]
    flagged_at: Annotated[str, When("When the change was reported.")]


class Note(TypedDict):
    """The contract's note object; `body` or `body_chars` depending on the detail asked for."""

    id: Annotated[str, Doc("The note's opaque id.", NOTE_ID)]
    project: Annotated[str, Doc("The slug of the note's project.", "payments")]
    type: Annotated[str, Doc("The note's type.", "fact", choices=inputs.NOTE_TYPES)]
    status: Annotated[str, Doc("The note's status.", "current", choices=inputs.NOTE_STATUSES)]
    title: Annotated[str, Doc("The note's title.", "Webhooks retry")]
    version: Annotated[int, Doc("Increases on every edit; the ETag of the note.", 1)]
    tags: Annotated[list[str], Doc("The note's tags.", ["webhooks"])]
    importance: Annotated[float, Doc("How much the note matters, 0 to 1.", 0.5)]
    visibility: Annotated[str, Doc("team or private.", "team", choices=inputs.VISIBILITIES)]
    source: Annotated[str, Doc("The client that wrote it.", "claude-code")]
    created_at: Annotated[str, When("When the note was created.")]
    updated_at: Annotated[str, When("When the note last changed.")]
    body: NotRequired[
        Annotated[str, Doc("The Markdown body, where bodies are included.", "Stripe retries 3 times.")]
    ]
    body_chars: NotRequired[Annotated[int, Doc("Length of the body, where the body is left out.", 24)]]
    superseded_by: NotRequired[
        Annotated[
            str | None, Doc("The note that replaced this one (null: one the caller cannot see).", NOTE_ID)
        ]
    ]
    supersedes: NotRequired[Annotated[list[str], Doc("The notes this one replaced.", [NOTE_ID])]]
    deleted_at: NotRequired[Annotated[str, When("When the note was soft-deleted.")]]
    paths: NotRequired[
        Annotated[list[str], Doc("Globs of the code the note is about, where it is bound.", ["billing/**"])]
    ]
    needs_review: NotRequired[
        Annotated[NeedsReview, Doc("Set when a reported code change touched one of `paths`.")]
    ]


class NoteResult(TypedDict):
    note: Annotated[Note, Doc("The note.")]


class NoteList(TypedDict):
    project: Annotated[str, Doc("The project's slug.", "payments")]
    notes: Annotated[list[Note], Doc("One page of notes, without bodies.")]
    total: Annotated[int, Doc("How many notes match the filters.", 120)]
    next_cursor: Annotated[
        str | None, Doc("Pass as `cursor` for the next page; null on the last page.", "eyJ2IjoxfQ:1v2x")
    ]


class NotePage(NoteList):
    """list_notes' answer: REST publishes NoteList, paging by cursor only, and drops next_offset."""

    next_offset: NotRequired[
        Annotated[int | None, Doc("Pass as `offset` for the next page (web pages).", 50)]
    ]


class NotesBatch(TypedDict):
    notes: Annotated[list[Note], Doc("The notes found, in the order asked.")]
    missing: Annotated[list[str], Doc("Ids not found or not visible.", ["n_DoesNotExist0000"])]


class NoteStatusResult(TypedDict):
    status: Annotated[Literal["deleted", "restored"], Doc("What happened.", "deleted")]
    note: Annotated[Note, Doc("The note, without its body.")]


class RevisionRow(TypedDict):
    version: Annotated[int, Doc("The version this revision was.", 1)]
    title: Annotated[str, Doc("The title at that version.", "Webhooks retry")]
    body_chars: Annotated[int, Doc("Length of the body at that version.", 24)]
    edited_by: Annotated[str | None, Doc("Who made that version.", "mia@acme.test")]
    created_at: Annotated[str, When("When that version was made.")]
    body: NotRequired[
        Annotated[str, Doc("The body at that version (include_body).", "Stripe retries 3 times.")]
    ]


class RevisionList(TypedDict):
    id: Annotated[str, Doc("The note's id.", NOTE_ID)]
    current_version: Annotated[int, Doc("The note's current version.", 3)]
    revisions: Annotated[list[RevisionRow], Doc("Earlier versions, newest first.")]


class Revision(TypedDict):
    id: Annotated[str, Doc("The note's id.", NOTE_ID)]
    version: Annotated[int, Doc("The version.", 1)]
    current: Annotated[bool, Doc("Whether this is the current version.", False)]
    type: Annotated[str, Doc("The type at that version.", "fact", choices=inputs.NOTE_TYPES)]
    status: Annotated[str, Doc("The status at that version.", "current", choices=inputs.NOTE_STATUSES)]
    title: Annotated[str, Doc("The title at that version.", "Webhooks retry")]
    body: Annotated[str, Doc("The body at that version.", "Stripe retries 3 times.")]
    tags: Annotated[list[str], Doc("The tags at that version.", ["webhooks"])]
    importance: Annotated[float, Doc("The importance at that version.", 0.5)]
    edited_by: Annotated[str | None, Doc("Who made that version.", "mia@acme.test")]
    created_at: Annotated[str, When("When that version was made.")]


class RevisionResult(TypedDict):
    revision: Annotated[Revision, Doc("The revision in full.")]


class RevisionRestored(TypedDict):
    status: Annotated[Literal["restored"], Doc("What happened.", "restored")]
    restored_version: Annotated[int, Doc("The version whose content is current again.", 1)]
    note: Annotated[Note, Doc("The note at its new version.")]


class LinkOut(TypedDict):
    to_id: Annotated[str, Doc("The note linked to.", NOTE_ID)]
    kind: Annotated[str, Doc("The kind of link.", "depends_on", choices=inputs.LINK_KINDS)]
    title: Annotated[str, Doc("The linked note's title.", "Ledger service")]
    created_at: Annotated[str, When("When the link was made.")]


class LinkIn(TypedDict):
    from_id: Annotated[str, Doc("The note linking here.", NOTE_ID)]
    kind: Annotated[str, Doc("The kind of link.", "contradicts", choices=inputs.LINK_KINDS)]
    title: Annotated[str, Doc("The linking note's title.", "Refunds via Stripe")]
    created_at: Annotated[str, When("When the link was made.")]


class LinkList(TypedDict):
    id: Annotated[str, Doc("The note's id.", NOTE_ID)]
    outbound: Annotated[list[LinkOut], Doc("Links from this note.")]
    inbound: Annotated[list[LinkIn], Doc("Links to this note.")]


class Link(TypedDict):
    from_id: Annotated[str, Doc("The linking note.", NOTE_ID)]
    to_id: Annotated[str, Doc("The linked note.", OTHER_NOTE_ID)]
    kind: Annotated[str, Doc("The kind of link.", "depends_on", choices=inputs.LINK_KINDS)]


class LinkResult(TypedDict):
    status: Annotated[Literal["created", "exists", "removed", "absent"], Doc("What happened.", "created")]
    link: Annotated[Link, Doc("The link.")]


# --------------------------------------------------------------------------------------------- projects


class Project(TypedDict):
    slug: Annotated[str, Doc("The project's slug.", "payments")]
    name: Annotated[str, Doc("The project's name.", "Payments API")]
    summary: Annotated[str, Doc("What the project is.", "Card payments and refunds.")]
    notes: NotRequired[Annotated[int, Doc("Notes the caller can see.", 42)]]


class ProjectDetail(Project):
    agent_instructions: Annotated[
        str, Doc("Instructions agents get first.", "Amounts are integers in cents.")
    ]
    default_context_budget: Annotated[int | None, Doc("get_context's budget when none is given.", 2000)]
    created_at: Annotated[str, When("When the project was created.")]
    updated_at: Annotated[str, When("When the project last changed.")]


class ProjectResult(TypedDict):
    project: Annotated[Project, Doc("The project.")]


class ProjectDetailResult(TypedDict):
    project: Annotated[ProjectDetail, Doc("The project with its texts.")]


class ProjectList(TypedDict):
    projects: Annotated[list[Project], Doc("Projects visible to the credential, by slug.")]


class TagRenamed(TypedDict):
    project: Annotated[str, Doc("The project's slug.", "payments")]
    old: Annotated[str, Doc("The old tag.", "db")]
    new: Annotated[str, Doc("The new tag.", "database")]
    notes_updated: Annotated[int, Doc("Notes whose tags changed.", 4)]


# ---------------------------------------------------------------------------------------------- capture


class Neighbour(TypedDict):
    id: Annotated[str, Doc("The note's id.", NOTE_ID)]
    title: Annotated[str, Doc("The note's title.", "Refunds via the ledger")]
    status: Annotated[str, Doc("The note's status.", "current", choices=inputs.NOTE_STATUSES)]


class Similar(TypedDict):
    id: Annotated[str, Doc("The note's id.", NOTE_ID)]
    title: Annotated[str, Doc("The note's title.", "Refunds via the ledger")]
    similarity: Annotated[float, Doc("Cosine similarity of meaning, 0 to 1.", 0.91)]


class Remembered(TypedDict):
    status: Annotated[Literal["created", "updated", "duplicate"], Doc("What remember did.", "created")]
    note: Annotated[Note, Doc("The stored note, or the existing one it matched.")]
    message: NotRequired[
        Annotated[str, Doc("What to check next, when there is something.", "Stored. Check the neighbours.")]
    ]
    review_required: NotRequired[
        Annotated[bool, Doc("Whether neighbours or similar notes need a look.", True)]
    ]
    neighbours: NotRequired[Annotated[list[Neighbour], Doc("Same-type notes that might contradict it.")]]
    similar: NotRequired[Annotated[list[Similar], Doc("Notes of very similar meaning.")]]
    superseded: NotRequired[Annotated[list[str], Doc("Notes this one replaced.", [NOTE_ID])]]


class SupersedeArguments(TypedDict):
    supersedes: Annotated[list[str], Doc("Resend with these ids as supersedes.", [NOTE_ID])]


class ForceArguments(TypedDict):
    force: Annotated[Literal[True], Doc("Resend with force=true.", True)]


class Resolutions(TypedDict):
    supersede: Annotated[SupersedeArguments, Doc("The arguments that replace the contradicted note.")]
    keep_both: Annotated[ForceArguments, Doc("The arguments that keep both notes.")]


class RememberConflict(TypedDict):
    """remember's answer when the statement contradicts a note: nothing stored. MCP returns it as is;
    REST answers it as a 409 conflict error carrying `note` and `resolve`."""

    status: Annotated[Literal["conflict"], Doc("Nothing was stored.", "conflict")]
    note: Annotated[Note, Doc("The note it contradicts, with its body.")]
    message: Annotated[str, Doc("Why, and how to resend.", "Nothing stored: this contradicts note n_x.")]
    resolve: Annotated[Resolutions, Doc("The arguments to resend with, for each way out.")]


class CheckpointItem(TypedDict):
    kind: Annotated[
        str,
        Doc(
            "Which list the item came from.",
            "decisions",
            choices=("decisions", "open_items", "failed_approaches"),
        ),
    ]
    status: Annotated[
        Literal["created", "updated", "duplicate", "conflict"], Doc("What remember did with it.", "created")
    ]
    id: Annotated[str, Doc("The note it was stored as, or the one it matched.", NOTE_ID)]
    message: NotRequired[
        Annotated[str, Doc("Why, for a conflict.", "Nothing stored: this contradicts note n_x.")]
    ]


class Checkpointed(TypedDict):
    handoff: Annotated[Note, Doc("The handoff note holding the whole checkpoint.")]
    items: Annotated[
        list[CheckpointItem], Doc("Each decision, open item and failed approach as its own note.")
    ]


# ----------------------------------------------------------------------------------------------- recall


class ContextProject(TypedDict):
    slug: Annotated[str, Doc("The project's slug.", "payments")]
    name: Annotated[str, Doc("The project's name.", "Payments API")]
    summary: Annotated[str, Doc("What the project is.", "Card payments and refunds.")]
    agent_instructions: Annotated[str, Doc("Instructions to follow.", "Amounts are integers in cents.")]


class ContextEntry(TypedDict):
    id: Annotated[str, Doc("The note's id.", NOTE_ID)]
    title: Annotated[str, Doc("The note's title.", "Amounts in cents")]
    excerpt: NotRequired[
        Annotated[str, Doc("The start of the body, where it adds to the title.", "Never floats.")]
    ]
    type: NotRequired[
        Annotated[str, Doc("The type (relevant and recent_changes).", "fact", choices=inputs.NOTE_TYPES)]
    ]
    status: NotRequired[
        Annotated[str, Doc("The status, when not current.", "disputed", choices=inputs.NOTE_STATUSES)]
    ]
    reason: NotRequired[Annotated[str, Doc("Why it is a conflict.", "disputed")]]
    score: NotRequired[Annotated[float, Doc("Ranking score (deep).", 0.82)]]
    version: NotRequired[Annotated[int, Doc("The note's version (deep).", 2)]]
    updated_at: NotRequired[Annotated[str, When("When it last changed (deep).")]]


class ContextSections(TypedDict, total=False):
    constraints: Annotated[list[ContextEntry], Doc("Rules that must hold.")]
    conflicts: Annotated[list[ContextEntry], Doc("Disputes and unfinished supersessions.")]
    decisions: Annotated[list[ContextEntry], Doc("Decisions in force.")]
    architecture: Annotated[list[ContextEntry], Doc("How things are built.")]
    failed_approaches: Annotated[list[ContextEntry], Doc("What did not work.")]
    status: Annotated[list[ContextEntry], Doc("Status and handoffs.")]
    relevant: Annotated[list[ContextEntry], Doc("What matches the query.")]
    open_items: Annotated[list[ContextEntry], Doc("Tasks still open.")]
    recent_changes: Annotated[list[ContextEntry], Doc("Recently changed notes.")]


class Omitted(TypedDict):
    id: Annotated[str, Doc("A note left out for the budget.", NOTE_ID)]
    section: Annotated[str, Doc("The section it would be in.", "decisions")]


class ContextMeta(TypedDict):
    budget: Annotated[int, Doc("The token budget used.", 2000)]
    estimated_tokens: Annotated[int, Doc("The response's estimated tokens (never above the budget).", 1834)]
    detail: Annotated[str, Doc("The detail level.", "balanced", choices=inputs.DETAIL_LEVELS)]
    omitted: Annotated[list[Omitted], Doc("Notes left out, while their ids fit.")]
    omitted_count: Annotated[int, Doc("How many notes were left out in all.", 3)]
    search_mode: NotRequired[
        Annotated[str | None, Doc("How the query was matched, when one was given.", "fulltext")]
    ]


class Context(TypedDict):
    project: Annotated[ContextProject, Doc("The project header.")]
    sections: Annotated[ContextSections, Doc("The packed sections; empty ones are left out.")]
    meta: Annotated[ContextMeta, Doc("Budget, spend and what was left out.")]


class Change(TypedDict):
    id: Annotated[str, Doc("The note's id.", NOTE_ID)]
    change: Annotated[
        Literal["created", "updated", "deleted"], Doc("What is proven to have happened.", "updated")
    ]
    version: Annotated[int, Doc("The note's version now.", 3)]
    type: Annotated[str, Doc("The note's type.", "decision", choices=inputs.NOTE_TYPES)]
    status: Annotated[str, Doc("The note's status.", "current", choices=inputs.NOTE_STATUSES)]
    title: Annotated[str, Doc("The note's title.", "Refunds via the ledger")]
    excerpt: Annotated[str, Doc("The start of the body.", "Refunds go through the ledger service.")]
    body_chars: Annotated[int, Doc("Length of the body.", 58)]
    updated_at: Annotated[str, When("When it changed.")]


class Changes(TypedDict):
    changes: Annotated[list[Change], Doc("Changes, oldest first.")]
    has_more: Annotated[bool, Doc("Whether another page follows: keep paging while true.", False)]
    cursor: Annotated[
        str, Doc("Pass as `cursor` to continue; keep it after the last page.", "eyJ2IjoyfQ:1v2x")
    ]


class SearchResult(TypedDict):
    id: Annotated[str, Doc("The note's id.", NOTE_ID)]
    project: Annotated[str, Doc("The note's project.", "payments")]
    title: Annotated[str, Doc("The note's title.", "Webhooks retry")]
    type: Annotated[str, Doc("The note's type.", "fact", choices=inputs.NOTE_TYPES)]
    status: Annotated[str, Doc("The note's status.", "current", choices=inputs.NOTE_STATUSES)]
    snippet: Annotated[str, Doc("The part of the body that matched.", "…retried 3 times with backoff…")]
    body_chars: Annotated[int, Doc("Length of the body.", 48)]
    score: Annotated[float, Doc("Ranking score.", 0.71)]
    updated_at: Annotated[str, When("When it last changed.")]
    body: NotRequired[
        Annotated[str, Doc("The full body (include_body).", "Stripe webhooks are retried 3 times.")]
    ]


class SearchResults(TypedDict):
    results: Annotated[list[SearchResult], Doc("Best first.")]
    search_mode: Annotated[
        str,
        Doc("How the query was matched.", "fulltext", choices=("vector", "scan", "fulltext", "substring")),
    ]
    message: NotRequired[
        Annotated[
            str,
            Doc(
                "Only when nothing matched: says so and what to try next.",
                "Nothing in the notes matches this query: no keyword matches and no note is close in meaning.",
            ),
        ]
    ]


class FlaggedNote(TypedDict):
    id: Annotated[str, Doc("The note's id.", NOTE_ID)]
    title: Annotated[str, Doc("The note's title.", "Invoices round half-even")]
    paths: Annotated[list[str], Doc("The touched files that matched its globs.", ["billing/tax.py"])]


class CodeChangeReported(TypedDict):
    """report_code_change's answer: the notes the change put up for review."""

    project: Annotated[str, Doc("The project's slug.", "payments")]
    commit: Annotated[str, Doc("The commit reported.", "9f2c1e4")]
    reported_at: Annotated[str, When("When the change was reported: the flags' time.")]
    flagged: Annotated[list[FlaggedNote], Doc("Current notes bound to a touched path, now flagged.")]
    flagged_count: Annotated[int, Doc("How many notes were flagged.", 1)]
