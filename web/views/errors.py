"""Error pages with the navigation, so a signed-in person keeps their way around."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from web.pages import page


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    return page(request, "403.html", {"exception": str(exception)}, status=403)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    return page(request, "404.html", status=404)
