"""The site's URLs and one view that fails, for the debug-page tests."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path

from knownbase.urls import urlpatterns as site_patterns


def explode(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("kaboom in a view")


urlpatterns = [*site_patterns, path("explode", explode)]
