"""A note's revisions (list, read, restore) and its links (list both ways, create, delete)."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.response import Response

from api import requests, responses
from api.views.base import (
    ETAG,
    IF_MATCH,
    NOTE,
    VERSION,
    WRITE,
    StoreView,
    body_of,
    expected_version,
    idempotency_key,
    note_answer,
    operation,
    path_parameter,
    principal,
    query_of,
)
from memory import inputs, store

REVISIONS = "revisions"
LINKS = "links"
KIND = path_parameter(
    "kind", "The kind of link: " + ", ".join(inputs.LINK_KINDS) + ".", "depends_on", inputs.LINK_KINDS
)
TO_ID = path_parameter("to_id", "The note the link points at.", "n_9Qw3eR5tY7uI1oP2", inputs.NOTE_ID)


class Revisions(StoreView):
    @operation(
        "list_revisions",
        "List a note's revisions",
        tag=REVISIONS,
        ok={200: responses.RevisionList},
        query=requests.RevisionsQuery,
        parameters=[NOTE],
        description="Earlier versions, newest first (the plan keeps a number of them per note).",
    )
    def get(self, request: Request, id: str) -> Response:
        return Response(
            store.list_note_revisions(principal(request), id, **query_of(request, requests.RevisionsQuery))
        )


class RevisionDetail(StoreView):
    @operation(
        "read_revision",
        "Read a revision",
        tag=REVISIONS,
        ok={200: responses.RevisionResult},
        parameters=[NOTE, VERSION],
        description="One version of the note in full (the current version too).",
    )
    def get(self, request: Request, id: str, version: int) -> Response:
        return Response(store.get_note_revision(principal(request), id, version))


class RevisionRestore(StoreView):
    @operation(
        "restore_revision",
        "Restore a revision",
        tag=REVISIONS,
        ok={200: responses.RevisionRestored},
        errors=WRITE,
        request=requests.RevisionRestore,
        parameters=[NOTE, VERSION, IF_MATCH, ETAG],
        description="Make that version's title, body, type, tags and importance current again, as a new "
        "version (status and visibility stay as they are).",
    )
    def post(self, request: Request, id: str, version: int) -> Response:
        arguments: dict[str, Any] = body_of(request, requests.RevisionRestore)
        conditional = expected_version(request, arguments.get("expected_version"))
        return note_answer(
            store.restore_note_revision(
                principal(request),
                id,
                version,
                expected_version=conditional,
                idempotency_key=idempotency_key(request),
            )
        )


class Links(StoreView):
    @operation(
        "list_links",
        "List a note's links",
        tag=LINKS,
        ok={200: responses.LinkList},
        parameters=[NOTE],
        description="Links from this note (outbound) and to it (inbound), among notes the caller can see.",
    )
    def get(self, request: Request, id: str) -> Response:
        return Response(store.list_note_links(principal(request), id))

    @operation(
        "create_link",
        "Link two notes",
        tag=LINKS,
        ok={201: responses.LinkResult, 200: responses.LinkResult},
        errors=WRITE,
        request=requests.LinkCreate,
        parameters=[NOTE],
        description="201 when the link is new, 200 when it exists already. Inbound links raise a note's "
        "rank; contradicts shows as a conflict in the context.",
    )
    def post(self, request: Request, id: str) -> Response:
        arguments = body_of(request, requests.LinkCreate)
        result = store.relate_notes(
            principal(request),
            id,
            arguments["to_id"],
            arguments["kind"],
            idempotency_key=idempotency_key(request),
        )
        return Response(result, status=201 if result["status"] == "created" else 200)


class LinkDetail(StoreView):
    @operation(
        "delete_link",
        "Remove a link",
        tag=LINKS,
        ok={200: responses.LinkResult},
        errors=WRITE,
        parameters=[NOTE, KIND, TO_ID],
        description="status is removed, or absent when there was no such link.",
    )
    def delete(self, request: Request, id: str, kind: str, to_id: str) -> Response:
        return Response(store.relate_notes(principal(request), id, to_id, kind, remove=True))
