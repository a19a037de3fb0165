"""Knowledge bound to code: reporting a change's files, and confirming a flagged note is still true."""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.response import Response

from api import requests, responses
from api.views.base import (
    ETAG,
    NOTE,
    PROJECT,
    WRITE,
    StoreView,
    body_of,
    idempotency_key,
    note_answer,
    operation,
    principal,
)
from memory import store

TAG = "code"


class CodeChanges(StoreView):
    @operation(
        "report_code_change",
        "Report a code change",
        tag=TAG,
        ok={200: responses.CodeChangeReported},
        errors=WRITE,
        request=requests.CodeChange,
        parameters=[PROJECT],
        description="The files a commit touched (what `git diff --name-only` prints): every current note "
        "bound to one of them is flagged needs_review with the commit. Nothing is hidden; an edit or "
        "POST /notes/{id}/confirm clears the flag.",
    )
    def post(self, request: Request, project: str) -> Response:
        arguments = body_of(request, requests.CodeChange)
        return Response(
            store.report_code_change(
                principal(request),
                project,
                arguments["commit"],
                arguments["paths"],
                idempotency_key=idempotency_key(request),
            )
        )


class NoteConfirm(StoreView):
    @operation(
        "confirm_note",
        "Confirm a note is still true",
        tag=TAG,
        ok={200: responses.NoteResult},
        errors=WRITE,
        request=requests.Empty,
        parameters=[NOTE, ETAG],
        description="Clear a note's needs_review flag: its code changed, and it is still true.",
    )
    def post(self, request: Request, id: str) -> Response:
        body_of(request, requests.Empty)
        return note_answer(
            store.confirm_note(principal(request), id, idempotency_key=idempotency_key(request))
        )
