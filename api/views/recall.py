"""Reading a project back: the token-budgeted context, the change feed and search."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse, JsonResponse
from drf_spectacular.types import OpenApiTypes
from rest_framework.request import Request
from rest_framework.response import Response

from api import requests, responses
from api.views.base import PROJECT, StoreView, operation, principal, query_of
from memory import store
from memory.store import InvalidArgument

TAG = "recall"


def markdown(text: str) -> HttpResponse:
    return HttpResponse(text, content_type="text/markdown; charset=utf-8")


def session_start(brief: str) -> JsonResponse:
    """The brief as a SessionStart hook's JSON output: clients that parse a hook's standard output as
    JSON (Gemini CLI) add `additionalContext` to the model's context; Claude Code reads it the same way."""
    return JsonResponse({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": brief}})


class Context(StoreView):
    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        # `format` chooses JSON or Markdown whatever Accept asks for (a hook's curl sends */*); errors are JSON.
        return super().perform_content_negotiation(request, force=True)

    @operation(
        "get_context",
        "Get a project's context",
        tag=TAG,
        ok={(200, "application/json"): responses.Context, (200, "text/markdown"): OpenApiTypes.STR},
        query=requests.ContextQuery,
        parameters=[PROJECT],
        description="The project's current state packed into a token budget: constraints, conflicts, "
        "decisions, architecture, failed approaches, status, relevant notes, open items, recent changes; "
        "meta says what was left out. Same arguments as the get_context tool. With format=markdown, the "
        "same packing as a compact Markdown brief (text/markdown) within the budget, for a client's "
        "session-start hook; with format=session_start, that brief inside a hook's JSON output "
        "(hookSpecificOutput.additionalContext).",
    )
    def get(self, request: Request, project: str) -> Response | HttpResponse:
        arguments = query_of(request, requests.ContextQuery)
        fmt = arguments.pop("format", None)
        budget = arguments.pop("budget", None)
        if budget is not None:
            if arguments.get("max_tokens") not in (None, budget):
                raise InvalidArgument("`budget` and `max_tokens` disagree: give one of them.")
            arguments["max_tokens"] = budget
        if fmt in ("markdown", "session_start"):
            brief = store.get_context_brief(principal(request), project, **arguments)
            return markdown(brief["content"]) if fmt == "markdown" else session_start(brief["content"])
        return Response(store.get_context(principal(request), project, **arguments))


class Render(StoreView):
    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        return super().perform_content_negotiation(request, force=True)

    @operation(
        "render_project",
        "Render a project's rules file",
        tag=TAG,
        ok={(200, "text/markdown"): OpenApiTypes.STR},
        query=requests.RenderQuery,
        parameters=[PROJECT],
        description="The project's current constraints, decisions and procedures as text to commit, for "
        "agents without MCP: target=agents_md is an AGENTS.md / CLAUDE.md section between "
        "`<!-- knownbase:begin project=… -->` and `<!-- knownbase:end project=… -->` (replace the section "
        "on each render), target=cursor_rules a Cursor rules file (.cursor/rules/knownbase.mdc). Stable "
        "order: type, then oldest first.",
    )
    def get(self, request: Request, project: str) -> HttpResponse:
        rendered = store.render_project(
            principal(request), project, **query_of(request, requests.RenderQuery)
        )
        return markdown(rendered["content"])


class Changes(StoreView):
    @operation(
        "get_changes",
        "Get a project's changes",
        tag=TAG,
        ok={200: responses.Changes},
        query=requests.ChangesQuery,
        parameters=[PROJECT],
        description="Notes created, updated or deleted after `since` or `cursor`, oldest first. Follow "
        "`cursor` while has_more, then keep it for next time.",
    )
    def get(self, request: Request, project: str) -> Response:
        return Response(
            store.get_changes_since(principal(request), project, **query_of(request, requests.ChangesQuery))
        )


class Search(StoreView):
    @operation(
        "search_notes",
        "Search notes",
        tag=TAG,
        ok={200: responses.SearchResults},
        query=requests.SearchQuery,
        description="Find notes by meaning and keywords (hybrid; semantic=false for keywords only) in one project or all visible "
        "ones; lean results with snippets, search_mode says how they were found.",
    )
    def get(self, request: Request) -> Response:
        arguments = query_of(request, requests.SearchQuery)
        return Response(store.search_notes(principal(request), arguments.pop("query"), **arguments))
