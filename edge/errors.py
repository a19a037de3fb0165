"""Store errors → HTTP status and body: the one table REST and the web both answer with, so a
refusal (a plan limit above all) has one status whichever door it came through."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404

from accounts.errors import (
    Forbidden,
    InsufficientScope,
    InvalidArgument,
    NotFound,
    PlanLimit,
    RateLimited,
    Screened,
    StoreError,
    Unavailable,
    VersionConflict,
)
from edge.challenge import insufficient_scope_challenge

STATUS: dict[type[StoreError], int] = {
    InvalidArgument: 400,
    PlanLimit: 402,  # Payment Required: the plan, not the person, is what stands in the way
    Forbidden: 403,
    InsufficientScope: 403,  # a Forbidden whose challenge names the missing OAuth scope
    NotFound: 404,
    VersionConflict: 409,
    Screened: 422,
    RateLimited: 429,
    StoreError: 500,
    Unavailable: 503,
}
# Seconds a client should wait before retrying a call that met an unavailable service.
UNAVAILABLE_RETRY_AFTER = 5
STATUS_BY_CODE: dict[str, int] = {error.code: status for error, status in STATUS.items()}
INTERNAL_MESSAGE = "The server failed to complete this request; nothing was changed. Retry later."


def http_status(error: StoreError) -> int:
    """The status of the most specific class of `error` in the table."""
    for cls in type(error).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return STATUS[StoreError]


def error_body(error: StoreError) -> dict[str, Any]:
    """`{"error": {"code", "message", ...details}}`; an internal error tells nothing of its cause."""
    if http_status(error) == STATUS[StoreError]:
        return {"error": {"code": StoreError.code, "message": INTERNAL_MESSAGE}}
    return {"error": error.as_dict()}


def error_headers(error: StoreError) -> dict[str, str]:
    """Headers the status needs: when to retry a rate-limited request, which scope a token lacks."""
    if isinstance(error, InsufficientScope):
        return {"WWW-Authenticate": insufficient_scope_challenge(str(error.details.get("scope", "")))}
    if isinstance(error, RateLimited) and "retry_after" in error.details:
        return {"Retry-After": str(error.details["retry_after"])}
    if isinstance(error, Unavailable):
        return {"Retry-After": str(UNAVAILABLE_RETRY_AFTER)}
    return {}


def raise_for_access(error: StoreError) -> None:
    """A page's own answer to a scope or permission refusal: a foreign id is a 404 and a forbidden
    write a 403, exactly as the store says. Other refusals are left to the page to show in its form."""
    if isinstance(error, NotFound):
        raise Http404(error.message)
    if isinstance(error, Forbidden):
        raise PermissionDenied(error.message)
