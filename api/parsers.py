"""The REST API's one body parser: JSON, bounded in size and in nesting depth.

A body larger than its endpoint allows is refused (413 too_large, the limit in the message) before
it is read: settings.DATA_UPLOAD_MAX_MEMORY_SIZE, or the view's own `max_body_bytes` (the import takes
files as large as the web import page does). A body nested deeper than settings.JSON_MAX_DEPTH is
refused (400) before anything walks it (edge.bounded_json).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework import exceptions, status
from rest_framework.parsers import BaseParser

from edge import bounded_json
from edge.sizes import megabytes


class BodyTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"

    def __init__(self, limit: int) -> None:
        super().__init__(
            f"The request body is larger than this endpoint accepts: at most {megabytes(limit)}."
        )
        self.limit = limit


class TooDeep(exceptions.ParseError):
    def __init__(self, limit: int) -> None:
        super().__init__(
            f"The request body is nested deeper than {limit} levels of arrays and objects: send a flatter document."
        )


def body_limit(view: Any) -> int | None:
    """The largest body `view` accepts, in bytes; None: no limit (DATA_UPLOAD_MAX_MEMORY_SIZE None)."""
    own = getattr(view, "max_body_bytes", None)
    if own is not None:
        return int(own() if callable(own) else own)
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return None if limit is None else int(limit)


def _declared_length(request: Any) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except (TypeError, ValueError):
        return 0


class BoundedJSONParser(BaseParser):
    """JSON bodies (not a subclass of DRF's JSONParser, which DRF hands the whole body already read
    into memory under Django's limit, raising RequestDataTooBig instead of an answer)."""

    media_type = "application/json"

    def parse(
        self,
        stream: IO[bytes] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        context = parser_context or {}
        limit = body_limit(context.get("view"))
        request = context.get("request")
        if limit is not None and request is not None and _declared_length(request) > limit:
            raise BodyTooLarge(limit)
        if stream is None:
            return {}
        raw = stream.read() if limit is None else stream.read(limit + 1)
        if limit is not None and len(raw) > limit:  # Content-Length understated (chunked)
            raise BodyTooLarge(limit)
        try:
            return bounded_json.loads(raw)
        except bounded_json.TooDeep as error:
            raise TooDeep(error.limit) from None
        except ValueError as error:  # JSONDecodeError and UnicodeDecodeError
            raise exceptions.ParseError(f"JSON parse error - {error}") from None
