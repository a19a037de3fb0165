"""What every REST view shares: parse the request, call one store function, shape the HTTP answer.

Views hold no validation, scoping or business rule: the store does all of it, for every entry point.
Here are only the HTTP parts: the Principal from the request, the body and query parsed by their
serializers, ETag / If-Match for note versions, Idempotency-Key, Location, and the schema of each
operation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api import responses, throttling
from api.schema import IDEMPOTENCY_HEADER
from edge.sizes import megabytes
from memory import inputs, store
from memory.store import InvalidArgument, Principal

F = TypeVar("F", bound=Callable[..., Any])


class StoreView(APIView):
    """A view over store functions. Every POST passes the Idempotency-Key header to its store function
    (`idempotency_key(request)`), and the schema documents the header on every POST (api.schema)."""

    def perform_authentication(self, request: Request) -> None:
        # Requests without a valid credential count against their address (api.throttling).
        address = throttling.refuse_flooding_address(request)
        try:
            super().perform_authentication(request)
        except AuthenticationFailed:
            throttling.count_anonymous(address)
            raise
        if not isinstance(request.auth, Principal):
            throttling.count_anonymous(address)


def principal(request: Request) -> Principal:
    found = request.auth
    assert isinstance(found, Principal)  # api.authentication.HasPrincipal admits nothing else
    return found


def parsed(serializer: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """The fields given, typed; a malformed value is a 400 before the store is called."""
    checked = serializer(data=data if data is not None else {})
    checked.is_valid(raise_exception=True)
    return dict(checked.validated_data)


def body_of(request: Request, serializer: type[serializers.Serializer]) -> dict[str, Any]:
    return parsed(serializer, request.data)


def query_of(request: Request, serializer: type[serializers.Serializer]) -> dict[str, Any]:
    return parsed(serializer, request.query_params)


def idempotency_key(request: Request) -> str | None:
    """The Idempotency-Key header as sent; the store checks it like the tools' `idempotency_key`."""
    value = request.headers.get(IDEMPOTENCY_HEADER)
    return None if value is None else str(value)


def expected_version(request: Request, given: int | None) -> int | None:
    """The version a write is conditional on: If-Match (the ETag of a read) or `expected_version`."""
    header = request.headers.get("If-Match")
    if header is None:
        return given
    value = header.strip()
    if value == "*":
        return given
    if value.startswith("W/"):
        value = value[2:]
    value = value.strip('"')
    if len(header) > inputs.IF_MATCH.max_length or not value.isascii() or not value.isdigit():
        raise InvalidArgument('`If-Match` must be one ETag of the note, e.g. "3" (its version).')
    version = int(value)
    if given is not None and given != version:
        raise InvalidArgument(
            f"`If-Match` ({version}) and `expected_version` ({given}) disagree: send one of them."
        )
    return version


def etag(version: int) -> str:
    return f'"{version}"'


def note_answer(
    result: store.results.NoteResult | store.results.NoteStatusResult | store.results.RevisionRestored,
    *,
    status: int = 200,
    location: bool = False,
) -> Response:
    """A response about one note, with its version as ETag."""
    note = result["note"]
    headers = {"ETag": etag(int(note["version"]))}
    if location:
        headers["Location"] = f"/api/v1/notes/{note['id']}"
    return Response(result, status=status, headers=headers)


# ------------------------------------------------------------------------------------------- schema

ERROR_STATUSES = {
    400: "invalid_argument: a value is malformed or out of range, or the JSON body is nested deeper than "
    f"{settings.JSON_MAX_DEPTH} levels (JSON_MAX_DEPTH); the message names it.",
    401: "unauthenticated: no credential, or one that is unknown, revoked or expired.",
    402: "plan_limit: the team plan's cap is reached; upgrade_url says where to raise it.",
    403: "forbidden: a read-only key, the viewer role, a project-scoped key, or not an owner or admin.",
    404: "not_found: nothing with this id or slug is visible to this credential.",
    409: "version_conflict (details: current_version, expected_version) or conflict.",
    422: "screened: a value looks like a secret or personal data; field and family name it.",
    413: "too_large: the body is larger than this endpoint accepts (DATA_UPLOAD_MAX_MEMORY_SIZE, "
    f"{megabytes(int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0))}; the import: IMPORT_MAX_BYTES, "
    f"{megabytes(int(settings.IMPORT_MAX_BYTES))}); the message states the limit.",
    429: "rate_limited: the plan's requests per minute; retry after Retry-After seconds.",
}
READ = (400, 401, 403, 404, 429)
_SUCCESS: dict[Any, str] = {
    200: "The result.",
    201: "Created.",
    (200, "application/json"): "The JSON export document.",
    (200, "text/markdown"): "The Markdown text.",
}
WRITE = (400, 401, 402, 403, 404, 409, 413, 422, 429)


def path_parameter(
    name: str,
    description: str,
    example: str | int,
    spec: inputs.TextInput | inputs.NumberInput | tuple[str, ...],
) -> OpenApiParameter:
    """A path parameter bounded by its declaration in memory.inputs: a length, a range or choices."""
    schema: dict[str, Any]
    if isinstance(spec, inputs.NumberInput):
        schema = {"type": "integer", "minimum": int(spec.minimum), "maximum": int(spec.maximum)}
    elif isinstance(spec, inputs.TextInput):
        schema = {"type": "string", "maxLength": spec.max_length}
    else:
        schema = {"type": "string", "enum": list(spec)}
    schema["example"] = example
    return OpenApiParameter(name, schema, OpenApiParameter.PATH, required=True, description=description)


PROJECT = path_parameter("project", "The project's slug.", "payments", inputs.PROJECT_SLUG)
NOTE = path_parameter("id", "The note's id.", responses.NOTE_ID, inputs.NOTE_ID)
VERSION = path_parameter("version", "A version of the note.", 1, inputs.VERSION)
IF_MATCH = OpenApiParameter(
    "If-Match",
    {
        "type": "string",
        "maxLength": inputs.IF_MATCH.max_length,
        "pattern": r'^(\*|(W/)?"?[0-9]{1,10}"?)$',
        "example": '"3"',
    },
    OpenApiParameter.HEADER,
    description="Apply only if the note is still at this ETag (its version); else 409 version_conflict.",
)
ETAG = OpenApiParameter(
    "ETag",
    {"type": "string", "example": '"3"'},
    OpenApiParameter.HEADER,
    description="The note's version, for If-Match.",
    response=[200, 201],
)
LOCATION = OpenApiParameter(
    "Location",
    {"type": "string", "example": f"/api/v1/notes/{responses.NOTE_ID}"},
    OpenApiParameter.HEADER,
    description="The created resource.",
    response=[201],
)


def operation(
    operation_id: str,
    summary: str,
    *,
    tag: str,
    ok: dict[Any, Any],
    errors: Iterable[int] = READ,
    request: type[serializers.Serializer] | None = None,
    query: type[serializers.Serializer] | None = None,
    parameters: Iterable[OpenApiParameter] = (),
    description: str = "",
) -> Callable[[F], F]:
    """The operation's schema: summary, input, its success and error answers (all one error shape)."""
    answers: dict[Any, Any] = {
        key: value
        if isinstance(value, OpenApiResponse)
        else OpenApiResponse(value, description=_SUCCESS.get(key, "OK."))
        for key, value in ok.items()
    }
    for code in errors:
        answers[code] = OpenApiResponse(responses.Error, description=ERROR_STATUSES[code])
    answers["default"] = OpenApiResponse(responses.Error, description="Any other failure, in the same shape.")
    listed = [*parameters, *([query] if query is not None else [])]
    return extend_schema(
        summary=summary,
        description=description or summary,
        tags=[tag],
        request=request if request is not None else None,
        responses=answers,
        parameters=listed,
        operation_id=operation_id,
    )
