"""Reading a project back: search, the token-budgeted context, and the change feed."""

from __future__ import annotations

from accounts.principal import Principal
from memory import inputs, registry, validation
from memory.models import (
    Note,
    NoteStatus,
    NoteType,
)
from memory.notes import paths as code_paths
from memory.notes import reinforcement
from memory.notes.lifecycle import rfc3339
from memory.notes.scoping import project_for
from memory.recall import brief, context, feed, retrieval, search, tokens
from memory.shapes import results, results_team
from memory.store.common import team_plan
from memory.transfer import rules_file


@registry.read
def search_notes(
    principal: Principal,
    query: str,
    project: str | None = None,
    semantic: bool | None = True,
    types: list[str] | None = None,
    statuses: list[str] | None = None,
    tags: list[str] | None = None,
    limit: int | None = None,
    include_body: bool | None = False,
    paths: list[str] | None = None,
) -> results.SearchResults:
    text = validation.text(query, "query", limit=inputs.QUERY.max_length, required=True)
    work_paths = code_paths.call_paths(paths)
    count = validation.declared_int(limit, "limit", inputs.SEARCH_LIMIT)
    with_body = validation.flag(include_body, "include_body")
    # Hybrid unless asked not to: fused ranking is never below keywords on any labelled set (README).
    wants_semantic = validation.flag(True if semantic is None else semantic, "semantic")
    notes = Note.objects.visible_to(principal).live().select_related("project")
    if project is not None:
        notes = notes.filter(project=project_for(principal, project))
    type_filter = validation.choice_list(types, "types", NoteType.values)
    status_filter = validation.choice_list(statuses, "statuses", NoteStatus.values)
    if type_filter:
        notes = notes.filter(type__in=type_filter)
    if status_filter:
        notes = notes.filter(status__in=status_filter)
    if tags is not None:
        notes = notes.filter(tags__contains=validation.tags(tags))
    filtered = bool(type_filter or status_filter or tags)
    use_semantic = wants_semantic and team_plan(principal).semantic_search
    hits, mode = retrieval.retrieve(notes, text, count * 3, use_semantic=use_semantic)
    scored = retrieval.ranked(hits, count, work_paths)
    rows: list[results.SearchResult] = []
    for score, note in scored:
        row: results.SearchResult = {
            "id": note.public_id,
            "project": note.project.slug,
            "title": note.title,
            "type": note.type,
            "status": note.status,
            "snippet": search.snippet(note.body, text),
            "body_chars": len(note.body),
            "score": score,
            "updated_at": rfc3339(note.updated_at),
        }
        if with_body:
            row["body"] = note.body
        rows.append(row)
    if not rows:
        return {"results": rows, "search_mode": mode, "message": search.nothing_matched(text, filtered)}
    return {"results": rows, "search_mode": mode}


@registry.read
def get_context(
    principal: Principal,
    project: str,
    query: str | None = None,
    detail: str | None = None,
    max_tokens: int | None = None,
    types: list[str] | None = None,
    paths: list[str] | None = None,
) -> results.Context:
    response, _ = _context(principal, project, query, detail, max_tokens, types, paths)
    return response


@registry.read
def get_context_brief(
    principal: Principal,
    project: str,
    query: str | None = None,
    detail: str | None = None,
    max_tokens: int | None = None,
    types: list[str] | None = None,
    paths: list[str] | None = None,
) -> results_team.ContextBrief:
    """get_context's packing rendered as a Markdown brief within the same budget (session-start hooks)."""
    response, budget = _context(principal, project, query, detail, max_tokens, types, paths)
    content = brief.render(response, budget)
    return {
        "project": response["project"]["slug"],
        "budget": budget,
        "estimated_tokens": tokens.estimate_tokens(content),
        "content": content,
    }


def _context(
    principal: Principal,
    project: str,
    query: str | None,
    detail: str | None,
    max_tokens: int | None,
    types: list[str] | None,
    paths: list[str] | None,
) -> tuple[results.Context, int]:
    target = project_for(principal, project)
    # Omitted means balanced; an empty or unknown value is an error, not a silent default.
    detail_name = validation.choice("balanced" if detail is None else detail, "detail", inputs.DETAIL_LEVELS)
    explicit = (
        None
        if max_tokens is None
        else validation.declared_int(max_tokens, "max_tokens", inputs.CONTEXT_MAX_TOKENS)
    )
    plan = team_plan(principal)
    plan_default = plan.default_context_budget
    budget = context.resolve_budget(explicit, target, context.DETAIL_LEVELS[detail_name], plan_default)
    response, returned = context.build_context(
        principal,
        target,
        query=validation.text(query, "query", limit=inputs.QUERY.max_length),
        detail_name=detail_name,
        budget=budget,
        types=validation.choice_list(types, "types", NoteType.values),
        use_semantic=plan.semantic_search,
        work_paths=code_paths.call_paths(paths),
    )
    reinforcement.record(returned)
    return response, budget


@registry.read
def render_project(principal: Principal, project: str, target: str | None = None) -> results_team.Rendered:
    """The project's current constraints, decisions and procedures as an AGENTS.md / CLAUDE.md section
    (agents_md, the default) or a Cursor rules file (cursor_rules), for agents without MCP."""
    found = project_for(principal, project)
    name = validation.choice("agents_md" if target is None else target, "target", inputs.RENDER_TARGETS)
    return {
        "project": found.slug,
        "target": name,
        "filename": rules_file.FILE_NAMES[name],
        "content": rules_file.RENDERERS[name](principal, found),
    }


@registry.read
def get_changes_since(
    principal: Principal,
    project: str,
    since: str | None = None,
    cursor: str | None = None,
    types: list[str] | None = None,
    statuses: list[str] | None = None,
    limit: int | None = None,
    max_tokens: int | None = None,
) -> results.Changes:
    target = project_for(principal, project)
    return feed.changes_since(
        principal,
        target,
        since=since,
        cursor=cursor,
        types=types,
        statuses=statuses,
        limit=inputs.FEED_LIMIT.whole_default if limit is None else limit,
        max_tokens=max_tokens,
    )
