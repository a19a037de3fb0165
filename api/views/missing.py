"""The answer for a path under /api/ that is not an endpoint: the API's 404, not an HTML page."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.views import APIView


@extend_schema(exclude=True)
class Missing(APIView):
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    throttle_classes: list[Any] = []

    def get(self, request: Request, *args: Any, **kwargs: Any) -> Any:
        raise NotFound()

    post = put = patch = delete = get
