"""Reading a project back: the token-budgeted context, the change feed and search."""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.response import Response

from api import requests, responses
from api.views.base import PROJECT, StoreView, operation, principal, query_of
from memory import store

TAG = "recall"


class Context(StoreView):
    @operation(
        "get_context",
        "Get a project's context",
        tag=TAG,
        ok={200: responses.Context},
        query=requests.ContextQuery,
        parameters=[PROJECT],
        description="The project's current state packed into a token budget: constraints, conflicts, "
        "decisions, architecture, failed approaches, status, relevant notes, open items, recent changes; "
        "meta says what was left out. Same arguments as the get_context tool.",
    )
    def get(self, request: Request, project: str) -> Response:
        return Response(
            store.get_context(principal(request), project, **query_of(request, requests.ContextQuery))
        )


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
