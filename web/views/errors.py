"""Error pages with the navigation, so a signed-in person keeps their way around."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from web.pages import page


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    return page(request, "403.html", {"exception": str(exception)}, status=403)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    return page(request, "404.html", status=404)


def too_many(request: HttpRequest, refusal: str, retry_after: int) -> HttpResponse:
    """A door's refusal (edge.doors): 429 with when to come back."""
    response = page(request, "429.html", {"refusal": refusal}, status=429)
    response["Retry-After"] = str(retry_after)
    return response
