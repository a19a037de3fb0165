"""One JSON error shape for every failure of the REST API: `{"error": {"code", "message", ...}}`.

The store's errors answer with the status, body and headers of the edge's one table (edge.errors),
as on the web: their code and details (versions of a conflict, the field and family of a screening
refusal, the upgrade URL of a plan limit) kept. DRF's own failures (bad JSON, failed parsing,
authentication, throttling, methods, media types) are mapped into the same shape. Anything else is
a logged `internal` error without a traceback in the response; a database outage is `unavailable`
(503 with Retry-After, edge/outage.py).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import set_rollback

from api.authentication import BEARER_CHALLENGE
from api.parsers import BodyTooLarge, TooDeep
from edge import errors as store_errors
from edge.outage import unavailable
from memory.store import StoreError

log = logging.getLogger(__name__)

# The store's codes from the edge's table, and the codes of failures only HTTP has.
STATUS_BY_CODE: dict[str, int] = {
    **store_errors.STATUS_BY_CODE,
    "unauthenticated": status.HTTP_401_UNAUTHORIZED,
    "method_not_allowed": status.HTTP_405_METHOD_NOT_ALLOWED,
    "not_acceptable": status.HTTP_406_NOT_ACCEPTABLE,
    "conflict": status.HTTP_409_CONFLICT,
    "too_large": status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
    "unsupported_media_type": status.HTTP_415_UNSUPPORTED_MEDIA_TYPE,
}
INTERNAL_MESSAGE = store_errors.INTERNAL_MESSAGE
NO_CREDENTIAL_MESSAGE = (
    "No credential: send `Authorization: Bearer <API key or OAuth access token>`, or sign in to the "
    "dashboard for the web session."
)
MAX_MESSAGE = 300  # characters of one field's message: a parser's message may quote what was sent


def error_response(
    code: str, message: str, *, headers: dict[str, str] | None = None, **details: Any
) -> Response:
    return Response(
        {"error": {"code": code, "message": message, **details}},
        status=STATUS_BY_CODE.get(code, status.HTTP_400_BAD_REQUEST),
        headers=headers,
    )


def exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response:
    """DRF's EXCEPTION_HANDLER: every exception a view raises becomes one error response."""
    set_rollback()
    response = _response_for(exc)
    response.exception = True
    return response


def _response_for(exc: Exception) -> Response:
    outage = unavailable(exc)
    if outage is not None:
        return Response(
            store_errors.error_body(outage),
            status=store_errors.http_status(outage),
            headers=store_errors.error_headers(outage),
        )
    if isinstance(exc, StoreError):
        if store_errors.http_status(exc) >= 500:
            log.error("REST request failed", exc_info=exc)
        return Response(
            store_errors.error_body(exc),
            status=store_errors.http_status(exc),
            headers=store_errors.error_headers(exc),
        )
    if isinstance(exc, Http404 | exceptions.NotFound):
        return error_response("not_found", "There is no such resource here. The paths are in /api/schema/.")
    if isinstance(exc, DjangoPermissionDenied | exceptions.PermissionDenied):
        return error_response("forbidden", _text(exc) or "This credential may not do this.")
    if isinstance(exc, exceptions.NotAuthenticated):
        return error_response(
            "unauthenticated", NO_CREDENTIAL_MESSAGE, headers={"WWW-Authenticate": BEARER_CHALLENGE}
        )
    if isinstance(exc, exceptions.AuthenticationFailed):
        challenge = f'{BEARER_CHALLENGE}, error="invalid_token"'
        return error_response("unauthenticated", _text(exc), headers={"WWW-Authenticate": challenge})
    if isinstance(exc, exceptions.Throttled):
        wait = max(1, int(exc.wait or 1))
        return error_response(
            "rate_limited",
            f"This credential made more requests this minute than the team plan allows. Retry in {wait} s, "
            "or upgrade the plan for a higher limit.",
            headers={"Retry-After": str(wait)},
            retry_after=wait,
        )
    if isinstance(exc, exceptions.ValidationError):
        return _invalid(exc.detail)
    if isinstance(exc, BodyTooLarge):
        return error_response("too_large", _text(exc), limit_bytes=exc.limit)
    if isinstance(exc, RequestDataTooBig):  # a body Django itself read past its limit
        limit = BodyTooLarge(int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0))
        return error_response("too_large", _text(limit), limit_bytes=limit.limit)
    if isinstance(exc, TooDeep):
        return error_response("invalid_argument", _text(exc))
    if isinstance(exc, exceptions.ParseError):
        return error_response(
            "invalid_argument",
            "The request body is not valid JSON: send a JSON object with Content-Type: application/json.",
        )
    if isinstance(exc, exceptions.UnsupportedMediaType):
        return error_response(
            "unsupported_media_type", "Send the body as JSON, with Content-Type: application/json."
        )
    if isinstance(exc, exceptions.MethodNotAllowed):
        return error_response(
            "method_not_allowed", f"{exc.args[0] if exc.args else 'This method'} is not allowed here."
        )
    if isinstance(exc, exceptions.NotAcceptable):
        return error_response("not_acceptable", "This endpoint answers application/json only.")
    if isinstance(exc, exceptions.APIException):
        code = "internal" if exc.status_code >= 500 else "invalid_argument"
        if code == "internal":
            return _internal(exc)
        return error_response(code, _text(exc))
    return _internal(exc)


def _internal(exc: Exception) -> Response:
    log.error("REST request failed", exc_info=exc)
    return error_response("internal", INTERNAL_MESSAGE)


def _text(exc: Exception) -> str:
    detail = getattr(exc, "detail", None)
    return _clip(str(detail if detail is not None else exc))


def _clip(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE] + "…"


def _flatten(detail: Any, path: str = "") -> list[tuple[str, str]]:
    """(field path, message) for every message in a DRF error tree: `tags[2]`, `document`…"""
    if isinstance(detail, Mapping):
        found: list[tuple[str, str]] = []
        for key, value in detail.items():
            if isinstance(key, int):
                found += _flatten(value, f"{path}[{key}]")
            elif key == "non_field_errors":
                found += _flatten(value, path)
            else:
                found += _flatten(value, f"{path}.{key}" if path else str(key))
        return found
    if isinstance(detail, list):
        if all(not isinstance(item, Mapping | list) for item in detail):
            return [(path, _clip(str(item))) for item in detail]
        found = []
        for index, item in enumerate(detail):
            found += _flatten(item, f"{path}[{index}]" if item else path)
        return found
    return [(path, _clip(str(detail)))]


def _invalid(detail: Any) -> Response:
    problems = _flatten(detail) or [("", "The request is not valid.")]
    field, message = problems[0]
    text = f"`{field}`: {message}" if field else message
    return error_response(
        "invalid_argument", text, fields={name or "request": text for name, text in reversed(problems)}
    )
