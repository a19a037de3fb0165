"""The database (or another service every request needs) is unavailable: one answer for every door.

An outage shows up as an exception from wherever the first query runs (a view, the session or
authentication middleware, a DRF authenticator, an OAuth validator, a tool). Each door translates it
here into the store's `unavailable` error, so a client sees one thing whichever way it came in:

- REST: 503 with Retry-After and the API's error body (api/errors.py calls `unavailable`);
- pages: 503 with Retry-After and the site's 503 page (OutageMiddleware for a view's exception,
  `server_error` as handler500 for one raised in a middleware);
- OAuth endpoints: 503 with Retry-After and an RFC 6749 style `temporarily_unavailable` body;
- MCP: an in-band tool error with code `unavailable` (mcp_gateway/results.py and auth.py).

The 503 page is rendered without the request: its context processors would read the session and
the signed-in user, that is the database that just failed.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

import psycopg
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.template.loader import render_to_string
from django.utils.deprecation import MiddlewareMixin
from django.views import defaults
from psycopg_pool import PoolTimeout

from accounts.errors import Unavailable
from edge.errors import UNAVAILABLE_RETRY_AFTER, error_body, error_headers

log = logging.getLogger(__name__)

# What a query raises when the server is down, unreachable, restarting or out of connections:
# Django's wrappers, and psycopg's own for code that reaches the pool directly.
OUTAGE_ERRORS: tuple[type[BaseException], ...] = (
    OperationalError,
    InterfaceError,
    PoolTimeout,
    psycopg.OperationalError,
    psycopg.InterfaceError,
)
DATABASE_MESSAGE = (
    f"The service's database is not answering right now. Retry in {UNAVAILABLE_RETRY_AFTER} s; a write "
    "that got this answer was not acknowledged, so send it again."
)
# Paths answered with JSON whatever the client accepts: the API, and the OAuth endpoints that
# clients (not people) call. The authorization page is a page.
API_PREFIX = "/api/"
OAUTH_PREFIXES = ("/oauth/token/", "/oauth/revoke/", "/oauth/register/", "/.well-known/")


def is_outage(exc: BaseException | None) -> bool:
    return isinstance(exc, OUTAGE_ERRORS)


def database_unavailable() -> Unavailable:
    return Unavailable(DATABASE_MESSAGE, retry_after=UNAVAILABLE_RETRY_AFTER)


def unavailable(exc: BaseException | None) -> Unavailable | None:
    """The `unavailable` error to answer `exc` with, or None when `exc` is no outage."""
    if not is_outage(exc):
        return None
    # One line, no traceback: during an outage every request logs this.
    log.warning("database unavailable: %s: %s", type(exc).__name__, str(exc).strip()[:300])
    return database_unavailable()


def _wants_json(request: HttpRequest) -> bool:
    if request.path.startswith(API_PREFIX):
        return True
    accept = request.headers.get("Accept", "")
    return "application/json" in accept and "text/html" not in accept


def outage_response(request: HttpRequest, error: Unavailable) -> HttpResponse:
    """The 503 for `request`: JSON for the API, OAuth's own shape for its endpoints, else a page."""
    headers = error_headers(error)
    if request.path.startswith(OAUTH_PREFIXES):
        body = {"error": "temporarily_unavailable", "error_description": error.message}
        return JsonResponse(body, status=503, headers=headers)
    if _wants_json(request):
        return JsonResponse(error_body(error), status=503, headers=headers)
    html = render_to_string("503.html", {"message": error.message, "retry_after": UNAVAILABLE_RETRY_AFTER})
    return HttpResponse(html, status=503, headers=headers)


class OutageMiddleware(MiddlewareMixin):
    """A view's outage exception becomes the 503 (REST views answer theirs in api/errors.py)."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponseBase | None:
        error = unavailable(exception)
        return outage_response(request, error) if error is not None else None


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: an outage met outside a view (the session middleware saving) is a 503 too; any
    other error is the site's plain 500 page, never a traceback."""
    # Django calls handler500 inside its `except` block, with no argument: the exception is there.
    error = unavailable(sys.exc_info()[1])
    if error is not None:
        return outage_response(request, error)
    server_error_page: Callable[[HttpRequest], HttpResponse] = defaults.server_error
    return server_error_page(request)
