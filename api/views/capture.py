"""remember and checkpoint: what an agent learns, judged against what the project knows."""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.response import Response

from api import requests, responses
from api.errors import error_response
from api.views.base import (
    PROJECT,
    WRITE,
    StoreView,
    body_of,
    idempotency_key,
    operation,
    principal,
)
from memory import store

TAG = "capture"


class Remember(StoreView):
    @operation(
        "remember",
        "Remember a fact",
        tag=TAG,
        ok={201: responses.Remembered, 200: responses.Remembered},
        errors=WRITE,
        request=requests.Remember,
        parameters=[PROJECT],
        description="Store one durable fact, decision or lesson: 201 created; 200 updated (a restatement "
        "updated a note) or duplicate (nothing stored); 409 conflict when it contradicts a note (nothing "
        "stored: resend with supersedes or force, as error.resolve says).",
    )
    def post(self, request: Request, project: str) -> Response:
        result = store.remember(
            principal(request),
            project,
            idempotency_key=idempotency_key(request),
            **body_of(request, requests.Remember),
        )
        if result["status"] == "conflict":
            details = {key: value for key, value in result.items() if key not in ("status", "message")}
            return error_response("conflict", result["message"], **details)
        return Response(result, status=201 if result["status"] == "created" else 200)


class Checkpoint(StoreView):
    @operation(
        "checkpoint",
        "Checkpoint a work session",
        tag=TAG,
        ok={201: responses.Checkpointed},
        errors=WRITE,
        request=requests.Checkpoint,
        parameters=[PROJECT],
        description="Close a session: a handoff note with everything, and each decision, open item and "
        "failed approach as its own note (with remember's checks; each item's status is reported).",
    )
    def post(self, request: Request, project: str) -> Response:
        result = store.checkpoint(
            principal(request),
            project,
            idempotency_key=idempotency_key(request),
            **body_of(request, requests.Checkpoint),
        )
        return Response(result, status=201)
