"""The REST API's OpenAPI schema, generated in-process, and its operations."""

from __future__ import annotations

import functools
from typing import Any

from drf_spectacular.generators import SchemaGenerator

METHODS = ("get", "post", "put", "patch", "delete")
WRITE_METHODS = ("post", "put", "patch", "delete")


@functools.cache
def openapi() -> dict[str, Any]:
    schema: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
    return schema


def operations() -> dict[str, tuple[str, str, dict[str, Any]]]:
    """operationId → (method, path, operation)."""
    return {
        operation["operationId"]: (method, path, operation)
        for path, item in openapi()["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    }


def write_operations() -> set[str]:
    return {op for op, (method, _, _) in operations().items() if method in WRITE_METHODS}
