"""Compact input schemas: every token of tools/list is paid for in every agent session.

Pydantic's schemas carry titles, `anyOf [X, null]` wrappers for optional arguments, string length
limits and list sizes. The published schema keeps what guides a model (types, enums, numeric ranges,
required arguments, descriptions); the server still validates the full constraints and answers
invalid_argument, naming the limit, for anything past them.
"""

from __future__ import annotations

from typing import Any

_DROP = {"title", "maxLength", "minLength", "maxItems", "minItems"}


def compact_schema(schema: Any) -> Any:
    if isinstance(schema, list):
        return [compact_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    options = schema.get("anyOf")
    if isinstance(options, list):
        non_null = [option for option in options if option != {"type": "null"}]
        if len(non_null) == 1 and len(non_null) < len(options):
            merged = {k: v for k, v in schema.items() if k not in ("anyOf", "default")}
            merged.update(non_null[0])
            return compact_schema(merged)
    result = {}
    for key, value in schema.items():
        if key in _DROP or (key == "default" and value is None):
            continue
        if key == "properties" and isinstance(value, dict):
            result[key] = {name: compact_schema(prop) for name, prop in value.items()}
        else:
            result[key] = compact_schema(value)
    return result


def one_line(description: str) -> str:
    return " ".join(description.split())
