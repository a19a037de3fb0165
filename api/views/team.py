"""The team: usage against the plan, and API keys (owners and admins)."""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.response import Response

from api import requests, responses
from api.views.base import (
    WRITE,
    StoreView,
    body_of,
    idempotency_key,
    operation,
    path_parameter,
    principal,
)
from memory import inputs, store

TAG = "team"
KEY = path_parameter(
    "key_id", "The key's id (its public prefix, kb_…).", "kb_3f9a1c2d4e5b6a7c", inputs.API_KEY_ID
)


class Usage(StoreView):
    @operation(
        "get_usage",
        "Get the team's usage",
        tag=TAG,
        ok={200: responses.Usage},
        description="The team's plan, its caps, what the team uses of each and where to upgrade.",
    )
    def get(self, request: Request) -> Response:
        return Response(store.get_usage(principal(request)))


class ApiKeys(StoreView):
    @operation(
        "list_api_keys",
        "List API keys",
        tag=TAG,
        ok={200: responses.ApiKeyList},
        description="The team's usable keys for owners and admins with a team-wide read-write "
        "credential; the caller's own keys for everyone else.",
    )
    def get(self, request: Request) -> Response:
        return Response(store.list_api_keys(principal(request)))

    @operation(
        "create_api_key",
        "Create an API key",
        tag=TAG,
        ok={201: responses.ApiKeyCreated},
        errors=WRITE,
        request=requests.ApiKeyCreate,
        description="A key acting for the caller, team-wide or for one project, optionally read-only "
        "and expiring (owners and admins only). The secret `key` is in this response only: store it now.",
    )
    def post(self, request: Request) -> Response:
        result = store.create_api_key(
            principal(request),
            idempotency_key=idempotency_key(request),
            **body_of(request, requests.ApiKeyCreate),
        )
        return Response(result, status=201)


class ApiKeyDetail(StoreView):
    @operation(
        "revoke_api_key",
        "Revoke an API key",
        tag=TAG,
        ok={200: responses.ApiKeyRevoked},
        errors=WRITE,
        parameters=[KEY],
        description="The key stops working at once; revoking it again changes nothing (owners and "
        "admins only).",
    )
    def delete(self, request: Request, key_id: str) -> Response:
        return Response(store.revoke_api_key(principal(request), key_id))
