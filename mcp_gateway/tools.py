"""MCP tools: parse → call the store → shape. Descriptions are instructions to the agent, kept short:
every word of tools/list is paid for in every session."""

from __future__ import annotations

from mcp.types import CallToolResult

from mcp_gateway.arguments import (
    ChangedPaths,
    Commit,
    ContextMaxTokens,
    Cursor,
    DetailName,
    ExportFormat,
    FeedLimit,
    FeedMaxTokens,
    IdempotencyKey,
    Importance,
    Items,
    LinkKindName,
    NoteId,
    NoteIds,
    NotePaths,
    NoteTypeName,
    PatchOp,
    Project,
    ProjectName,
    ProjectText,
    Query,
    Reason,
    RevisionNumber,
    RevisionsLimit,
    SearchLimit,
    SearchQuery,
    Since,
    Slug,
    Source,
    StatusName,
    Supersedes,
    TagName,
    Tags,
    Text,
    Title,
    Version,
    VisibilityName,
    WorkPaths,
)
from mcp_gateway.auth import current_principal
from mcp_gateway.results import call_store, error
from mcp_gateway.tooling import tool
from memory import inputs, store


@tool("read", core=True)
async def get_context(
    project: Project,
    query: Query | None = None,
    detail: DetailName = "balanced",
    max_tokens: ContextMaxTokens | None = None,
    types: list[NoteTypeName] | None = None,
    paths: WorkPaths | None = None,
) -> CallToolResult:
    """START HERE for project work: constraints, conflicts, decisions, architecture, failed approaches,
    status and open items in a token budget. Read meta.omitted ids with get_notes."""
    return await call_store(
        store.get_context,
        current_principal(),
        project,
        query=query,
        detail=detail,
        max_tokens=max_tokens,
        types=types,
        paths=paths,
    )


@tool("read", core=True)
async def get_changes_since(
    project: Project,
    since: Since | None = None,
    cursor: Cursor | None = None,
    types: list[NoteTypeName] | None = None,
    statuses: list[StatusName] | None = None,
    limit: FeedLimit = inputs.FEED_LIMIT.whole_default,
    max_tokens: FeedMaxTokens | None = None,
) -> CallToolResult:
    """RESUME AFTER ANOTHER AGENT OR HUMAN MAY HAVE CHANGED THE PROJECT: notes created, updated or
    deleted after `since`/`cursor`, oldest first. Page while has_more; keep the cursor."""
    return await call_store(
        store.get_changes_since,
        current_principal(),
        project,
        since=since,
        cursor=cursor,
        types=types,
        statuses=statuses,
        limit=limit,
        max_tokens=max_tokens,
    )


@tool("write", core=True)
async def remember(
    project: Project,
    content: Text,
    type: NoteTypeName | None = None,
    title: Title | None = None,
    tags: Tags | None = None,
    importance: Importance | None = None,
    supersedes: Supersedes | None = None,
    force: bool = False,
    idempotency_key: IdempotencyKey | None = None,
    visibility: VisibilityName | None = None,
    source: Source | None = None,
    paths: NotePaths | None = None,
) -> CallToolResult:
    """Store one durable fact, decision or lesson as you learn it. Status: created, updated,
    duplicate, or conflict (nothing stored; resolve with supersedes or force as the reply says)."""
    return await call_store(
        store.remember,
        current_principal(),
        project,
        content,
        type=type,
        title=title,
        tags=tags,
        importance=importance,
        supersedes=supersedes,
        force=force,
        idempotency_key=idempotency_key,
        visibility=visibility,
        source=source,
        paths=paths,
    )


@tool("write", core=True)
async def checkpoint(
    project: Project,
    summary: Text,
    decisions: Items | None = None,
    open_items: Items | None = None,
    failed_approaches: Items | None = None,
    next_actions: Items | None = None,
    idempotency_key: IdempotencyKey | None = None,
    paths: NotePaths | None = None,
) -> CallToolResult:
    """BEFORE YOU STOP or hand over: record what was done, decided, left open, failed, and what
    comes next."""
    return await call_store(
        store.checkpoint,
        current_principal(),
        project,
        summary,
        decisions=decisions,
        open_items=open_items,
        failed_approaches=failed_approaches,
        next_actions=next_actions,
        idempotency_key=idempotency_key,
        paths=paths,
    )


@tool("read", core=True)
async def search_notes(
    query: SearchQuery,
    project: Project | None = None,
    semantic: bool = True,
    types: list[NoteTypeName] | None = None,
    statuses: list[StatusName] | None = None,
    tags: Tags | None = None,
    limit: SearchLimit = inputs.SEARCH_LIMIT.whole_default,
    include_body: bool = False,
    paths: WorkPaths | None = None,
) -> CallToolResult:
    """Find notes by meaning and keywords (semantic=false: keywords only). Lean snippets; read with get_notes."""
    return await call_store(
        store.search_notes,
        current_principal(),
        query,
        project=project,
        semantic=semantic,
        types=types,
        statuses=statuses,
        tags=tags,
        limit=limit,
        include_body=include_body,
        paths=paths,
    )


@tool("read", core=True)
async def get_notes(ids: NoteIds, include_body: bool = True) -> CallToolResult:
    """Read notes by id in one call; unknown ids are listed in `missing`."""
    return await call_store(store.get_notes, current_principal(), ids, include_body=include_body)


@tool("write", idempotent=True)
async def save_note(
    id: NoteId | None = None,
    project: Project | None = None,
    title: Title | None = None,
    body: Text | None = None,
    type: NoteTypeName | None = None,
    status: StatusName | None = None,
    tags: Tags | None = None,
    importance: Importance | None = None,
    visibility: VisibilityName | None = None,
    expected_version: Version | None = None,
    paths: NotePaths | None = None,
) -> CallToolResult:
    """Create a note (project, title, body) or replace fields of one (id). Prefer remember for new
    knowledge: it checks for duplicates and contradictions."""
    principal = current_principal()
    if (id is None) == (project is None):
        return error(
            "invalid_argument",
            "Pass `project` (and title, body) to create a note, or `id` (and the fields to change) to update one.",
        )
    if id is None:
        if expected_version is not None:
            return error("invalid_argument", "`expected_version` applies to updates only: pass `id` with it.")
        return await call_store(
            store.create_note,
            principal,
            project,
            title,
            body,
            type=type,
            status=status,
            tags=tags,
            importance=importance,
            visibility=visibility,
            paths=paths,
        )
    return await call_store(
        store.update_note,
        principal,
        id,
        title=title,
        body=body,
        type=type,
        status=status,
        tags=tags,
        importance=importance,
        visibility=visibility,
        expected_version=expected_version,
        paths=paths,
    )


@tool("write")
async def patch_note(
    id: NoteId,
    op: PatchOp,
    text: Text,
    find: Text | None = None,
    expected_version: Version | None = None,
) -> CallToolResult:
    """Edit a note's body without resending it: append, prepend, or replace an exact `find` text."""
    return await call_store(
        store.patch_note, current_principal(), id, op, text, find=find, expected_version=expected_version
    )


@tool("write", destructive=True, idempotent=True)
async def delete_note(id: NoteId, reason: Reason | None = None) -> CallToolResult:
    """Delete a wrong or obsolete note (restorable by people). For outdated knowledge prefer
    remember(supersedes=[id])."""
    return await call_store(store.delete_note, current_principal(), id, reason=reason)


@tool("read")
async def list_note_revisions(
    id: NoteId, limit: RevisionsLimit = inputs.REVISIONS_LIMIT.whole_default, include_body: bool = False
) -> CallToolResult:
    """List a note's earlier versions, newest first."""
    return await call_store(
        store.list_note_revisions, current_principal(), id, limit=limit, include_body=include_body
    )


@tool("read")
async def get_note_revision(id: NoteId, version: RevisionNumber) -> CallToolResult:
    """Read one version of a note in full."""
    return await call_store(store.get_note_revision, current_principal(), id, version)


@tool("write", idempotent=True)
async def relate_notes(
    from_id: NoteId,
    to_id: NoteId,
    kind: LinkKindName,
    remove: bool = False,
) -> CallToolResult:
    """Link two notes (or remove the link). Links raise the target's rank; contradicts shows as a
    conflict in get_context."""
    return await call_store(store.relate_notes, current_principal(), from_id, to_id, kind, remove=remove)


@tool("read")
async def list_projects() -> CallToolResult:
    """List the projects this credential can see, with note counts. Use a slug as `project`."""
    return await call_store(store.list_projects, current_principal())


@tool("write")
async def create_project(
    name: ProjectName,
    slug: Slug | None = None,
    summary: ProjectText | None = None,
    agent_instructions: ProjectText | None = None,
) -> CallToolResult:
    """Create a project (team-wide keys only). agent_instructions are shown in get_context."""
    return await call_store(
        store.create_project,
        current_principal(),
        name=name,
        slug=slug,
        summary=summary,
        agent_instructions=agent_instructions,
    )


@tool("write", idempotent=True)
async def rename_project(
    project: Project,
    name: ProjectName | None = None,
    slug: Slug | None = None,
) -> CallToolResult:
    """Rename a project or change its slug."""
    return await call_store(store.rename_project, current_principal(), project, name=name, slug=slug)


@tool("write", idempotent=True)
async def rename_tag(
    project: Project,
    old: TagName,
    new: TagName,
) -> CallToolResult:
    """Rename a tag on every note of a project (merges into `new` if it exists)."""
    return await call_store(store.rename_tag, current_principal(), project, old, new)


@tool("read")
async def export_project(project: Project, format: ExportFormat = "json") -> CallToolResult:
    """Export a whole project; returns counts and a short-lived download URL."""
    return await call_store(store.export_project, current_principal(), project, format)


@tool("read")
async def get_usage() -> CallToolResult:
    """Show the team's plan, its caps and current usage."""
    return await call_store(store.get_usage, current_principal())


@tool("write")
async def report_code_change(project: Project, commit: Commit, paths: ChangedPaths) -> CallToolResult:
    """Report a commit's changed files (git diff --name-only): notes bound to them get needs_review."""
    return await call_store(store.report_code_change, current_principal(), project, commit, paths)


@tool("write", idempotent=True)
async def confirm_note(id: NoteId) -> CallToolResult:
    """Confirm a needs_review note is still true after its code changed (clears the flag)."""
    return await call_store(store.confirm_note, current_principal(), id)
