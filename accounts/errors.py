"""Errors the store raises. MCP answers them in-band (isError with `code`); REST and the web answer with
the HTTP status and body of edge/errors.py's one table."""

from __future__ import annotations

from typing import Any


class StoreError(Exception):
    code = "internal"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.details}


class NotFound(StoreError):
    code = "not_found"


class Forbidden(StoreError):
    code = "forbidden"


class InsufficientScope(Forbidden):
    """An OAuth token without the scope the call needs (RFC 6750 §3.1); details name the scope."""

    code = "insufficient_scope"


class InvalidArgument(StoreError):
    code = "invalid_argument"


class VersionConflict(StoreError):
    code = "version_conflict"


class Screened(StoreError):
    code = "screened"


class PlanLimit(StoreError):
    code = "plan_limit"


class RateLimited(StoreError):
    code = "rate_limited"


class Unavailable(StoreError):
    """A service the operation needs (Stripe, the database) did not answer: nothing was changed, and
    the same call may succeed shortly."""

    code = "unavailable"


READ_ONLY_MESSAGE = (
    "This API key is read-only: it can call read tools only. Create a read-write key on the API keys "
    "page (an owner or admin can, and so can you as a member)."
)
VIEWER_MESSAGE = (
    "Your role in this team is viewer: viewers read memory and cannot change it. Ask an owner or admin "
    "to make you a member."
)
OAUTH_READ_ONLY_MESSAGE = (
    "This OAuth token was granted the `read` scope only; this call needs the `write` scope. Connect the "
    "application again and allow read and write access (a viewer's connection is always read-only)."
)
