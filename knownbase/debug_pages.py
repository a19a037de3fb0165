"""Django's debug pages for the developer's own machine only.

DEBUG is on in development, where the server may still be reachable from a network: Django's debug
page for an error (a bad Host header is enough) shows the traceback, the request and the settings.
Here a client that is not a loopback address, or that comes through a proxy, gets the plain error
page production gives instead; the developer on the machine itself keeps the full page. Whether a
page is shown is decided per request through the hook Django provides for it
(`request.exception_reporter_class`), so DEBUG's other effects are unchanged.

The debug pages that are shown also mask the passwords of URL-valued settings and request headers
(DATABASE_URL, REDIS_URL, the broker URL), which Django's own filter leaves readable.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.core.exceptions import BadRequest, SuspiciousOperation
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.urls import get_resolver
from django.utils.decorators import sync_and_async_middleware
from django.utils.safestring import SafeString
from django.views.debug import ExceptionReporter, SafeExceptionReporterFilter

# Headers proxies, balancers and CDNs add to name the client they forward for: a request carrying
# one did not come from a person at this machine, even when the proxy itself connects over loopback.
# Every X-Forwarded-* header counts (For, Host, Proto, Server...), and the other names in use.
_FORWARDING_PREFIX = "HTTP_X_FORWARDED_"
_FORWARDING_HEADERS = frozenset(
    {
        "HTTP_FORWARDED",
        "HTTP_VIA",
        "HTTP_X_REAL_IP",
        "HTTP_X_CLIENT_IP",
        "HTTP_CLIENT_IP",
        "HTTP_TRUE_CLIENT_IP",
        "HTTP_CF_CONNECTING_IP",
        "HTTP_CF_CONNECTING_IPV6",
        "HTTP_FASTLY_CLIENT_IP",
        "HTTP_X_CLUSTER_CLIENT_IP",
        "HTTP_X_ORIGINAL_FORWARDED_FOR",
        "HTTP_X_PROXYUSER_IP",
        "HTTP_X_ENVOY_EXTERNAL_ADDRESS",
        "HTTP_X_AZURE_CLIENTIP",
        "HTTP_X_APPENGINE_USER_IP",
        "HTTP_AKAMAI_ORIGIN_HOP",
    }
)
# What Django's debug pages (technical_404.html, technical_500.html / .txt) say of themselves.
_DEBUG_PAGE_MARK = b"because you have <code>DEBUG = True</code>"
# scheme://user:password@ — the password, up to the last "@" (passwords hold "@" and "/" too);
# every repetition is bounded, so a long value costs little.
_URL_PASSWORD = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]{0,30}://[^\s:/@]{0,256}:)\S{1,512}@")


def is_local_request(request: HttpRequest) -> bool:
    """A request from a loopback address that no proxy forwarded."""
    if any(
        name in _FORWARDING_HEADERS or name.startswith(_FORWARDING_PREFIX)
        for name in request.META
        if name.startswith("HTTP_")
    ):
        return False
    try:
        address = ipaddress.ip_address(str(request.META.get("REMOTE_ADDR", "")).strip("[]"))
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return bool(address.is_loopback or (mapped is not None and mapped.is_loopback))


class PlainErrorReporter(ExceptionReporter):
    """In place of the debug page, the page the site's error handlers give with DEBUG off."""

    def _status(self) -> int:
        if self.exc_type is not None and issubclass(self.exc_type, (SuspiciousOperation, BadRequest)):
            return 400
        return 500

    def _title(self) -> str:
        return "Bad Request (400)" if self._status() == 400 else "Server Error (500)"

    def get_traceback_html(self) -> SafeString:
        if self.request is None:
            return SafeString(f"<h1>{self._title()}</h1>")
        response = _error_page(self.request, self._status())
        # The site's own error page, rendered by its templates: already safe HTML.
        return SafeString(bytes(response.content).decode(response.charset))

    def get_traceback_text(self) -> SafeString:
        return SafeString(self._title())


class SettingsFilter(SafeExceptionReporterFilter):
    """Django's filter, and a URL's password masked wherever a setting or a header holds one."""

    def cleanse_setting(self, key: Any, value: Any) -> Any:
        cleansed = super().cleanse_setting(key, value)
        if isinstance(cleansed, str) and "://" in cleansed:
            return _URL_PASSWORD.sub(lambda match: f"{match.group(1)}{self.cleansed_substitute}@", cleansed)
        return cleansed


def _prepare(request: HttpRequest) -> bool:
    """Whether this request may see debug pages; if not, route Django's debug pages to plain ones."""
    if not settings.DEBUG or is_local_request(request):
        return True
    request.exception_reporter_class = PlainErrorReporter
    return False


def _plain_404(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    # A missing page is answered by technical_404_response directly, without the reporter hook: it
    # lists the site's URL patterns, so a remote client gets the ordinary 404 page instead.
    if (
        response.status_code == 404
        and isinstance(response, HttpResponse)
        and _DEBUG_PAGE_MARK in response.content
    ):
        return _error_page(request, 404)
    return response


def _error_page(request: HttpRequest, status: int) -> HttpResponse:
    """The page the site's error handler for `status` gives (what DEBUG=False would show)."""
    handler: Callable[..., HttpResponse] = get_resolver().resolve_error_handler(status)
    return handler(request) if status == 500 else handler(request, exception=None)


@sync_and_async_middleware
def debug_pages_for_loopback_only(
    get_response: Callable[[HttpRequest], Any],
) -> Callable[[HttpRequest], Any]:
    if iscoroutinefunction(get_response):

        async def middleware(request: HttpRequest) -> HttpResponseBase:
            local = _prepare(request)
            response: HttpResponseBase = await get_response(request)
            return response if local else _plain_404(request, response)

        return middleware

    def sync_middleware(request: HttpRequest) -> HttpResponseBase:
        local = _prepare(request)
        response: HttpResponseBase = get_response(request)
        return response if local else _plain_404(request, response)

    return sync_middleware
