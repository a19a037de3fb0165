"""Notes: list (filtered, cursor pages), batch read, create, read, update, patch, delete, restore."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.response import Response

from api import requests, responses
from api.views.base import (
    ETAG,
    IF_MATCH,
    LOCATION,
    NOTE,
    PROJECT,
    WRITE,
    StoreView,
    body_of,
    expected_version,
    idempotency_key,
    note_answer,
    operation,
    principal,
    query_of,
)
from memory import inputs, store

TAG = "notes"


class ProjectNotes(StoreView):
    @operation(
        "list_notes",
        "List a project's notes",
        tag=TAG,
        ok={200: responses.NoteList},
        query=requests.NoteListQuery,
        parameters=[PROJECT],
        description="One page of notes without bodies, filtered and sorted, with the total that matched. "
        "Follow next_cursor (with the same filters) until it is null.",
    )
    def get(self, request: Request, project: str) -> Response:
        result = store.list_notes(principal(request), project, **query_of(request, requests.NoteListQuery))
        # REST pages by cursor only: the store's offset pages skip or repeat notes that change.
        result.pop("next_offset", None)
        return Response(result)

    @operation(
        "create_note",
        "Create a note",
        tag=TAG,
        ok={201: responses.NoteResult},
        errors=WRITE,
        request=requests.NoteCreate,
        parameters=[PROJECT, ETAG, LOCATION],
        description="Write a note exactly as given. For new knowledge prefer POST …/remember: it checks "
        "for duplicates and contradictions.",
    )
    def post(self, request: Request, project: str) -> Response:
        arguments = body_of(request, requests.NoteCreate)
        result = store.create_note(
            principal(request), project, idempotency_key=idempotency_key(request), **arguments
        )
        return note_answer(result, status=201, location=True)


class NotesBatch(StoreView):
    @operation(
        "read_notes",
        "Read notes by id",
        tag=TAG,
        ok={200: responses.NotesBatch},
        query=requests.NotesBatchQuery,
        description=f"Up to {inputs.NOTE_IDS.max_items} notes in one request (repeat `ids`); unknown or "
        "invisible ids are listed in `missing`.",
    )
    def get(self, request: Request) -> Response:
        arguments = query_of(request, requests.NotesBatchQuery)
        return Response(store.get_notes(principal(request), arguments.pop("ids"), **arguments))


class NoteDetail(StoreView):
    @operation(
        "read_note",
        "Read a note",
        tag=TAG,
        ok={200: responses.NoteResult},
        query=requests.NoteReadQuery,
        parameters=[NOTE, ETAG],
        description="One note; its ETag is its version, for If-Match on a later write.",
    )
    def get(self, request: Request, id: str) -> Response:
        return note_answer(
            store.get_note(principal(request), id, **query_of(request, requests.NoteReadQuery))
        )

    @operation(
        "update_note",
        "Update a note",
        tag=TAG,
        ok={200: responses.NoteResult},
        errors=WRITE,
        request=requests.NoteUpdate,
        parameters=[NOTE, IF_MATCH, ETAG],
        description="Replace the given fields; the previous state is kept as a revision. With If-Match or "
        "expected_version, a note that moved on is 409 version_conflict naming both versions.",
    )
    def patch(self, request: Request, id: str) -> Response:
        arguments: dict[str, Any] = body_of(request, requests.NoteUpdate)
        arguments["expected_version"] = expected_version(request, arguments.get("expected_version"))
        return note_answer(store.update_note(principal(request), id, **arguments))

    @operation(
        "delete_note",
        "Delete a note",
        tag=TAG,
        ok={200: responses.NoteStatusResult},
        errors=WRITE,
        query=requests.NoteDeleteQuery,
        parameters=[NOTE, IF_MATCH, ETAG],
        description="Soft delete: the note leaves reads and search, shows as deleted in the change feed, "
        "and POST …/restore brings it back.",
    )
    def delete(self, request: Request, id: str) -> Response:
        arguments: dict[str, Any] = query_of(request, requests.NoteDeleteQuery)
        arguments["expected_version"] = expected_version(request, arguments.get("expected_version"))
        return note_answer(store.delete_note(principal(request), id, **arguments))


class NotePatch(StoreView):
    @operation(
        "patch_note",
        "Edit a note's text",
        tag=TAG,
        ok={200: responses.NoteResult},
        errors=WRITE,
        request=requests.NotePatch,
        parameters=[NOTE, IF_MATCH, ETAG],
        description="Append or prepend text, or replace one exact occurrence of `find`, without resending "
        "the body. A `find` that is absent or ambiguous changes nothing (400).",
    )
    def post(self, request: Request, id: str) -> Response:
        arguments: dict[str, Any] = body_of(request, requests.NotePatch)
        arguments["expected_version"] = expected_version(request, arguments.get("expected_version"))
        return note_answer(
            store.patch_note(principal(request), id, idempotency_key=idempotency_key(request), **arguments)
        )


class NoteRestore(StoreView):
    @operation(
        "restore_note",
        "Restore a deleted note",
        tag=TAG,
        ok={200: responses.NoteStatusResult},
        errors=WRITE,
        request=requests.Empty,
        parameters=[NOTE, ETAG],
        description="Bring a soft-deleted note back (it counts against the plan's notes again).",
    )
    def post(self, request: Request, id: str) -> Response:
        body_of(request, requests.Empty)
        return note_answer(
            store.restore_note(principal(request), id, idempotency_key=idempotency_key(request))
        )
