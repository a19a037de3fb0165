"""The OpenAPI 3 schema (drf-spectacular): field examples, the security schemes, and links.

Links say where a response's values go next (a created note's id into the note's other operations),
for readers and for the stateful fuzz run that follows them."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiParameter

from api.requests import Request
from memory import inputs

NOTE_FROM_BODY = "$response.body#/note/id"

IDEMPOTENCY_HEADER = "Idempotency-Key"
IDEMPOTENCY_KEY = OpenApiParameter(
    IDEMPOTENCY_HEADER,
    {
        "type": "string",
        "minLength": 1,
        "maxLength": inputs.IDEMPOTENCY_KEY.max_length,
        "example": "ci-run-4812-step-3",
    },
    OpenApiParameter.HEADER,
    description="Makes the POST safe to retry. A retry with the same key by the same credential and with "
    "the same request returns the first answer (same status and body) and writes nothing; the same key "
    "with a different request is 400 invalid_argument.",
)


def _is_request(serializer: Any) -> bool:
    kind = serializer if isinstance(serializer, type) else type(serializer)
    return issubclass(kind, Request)


class KnownbaseAutoSchema(AutoSchema):
    """Publishes each field's example (set by api.fields) next to its description, that request
    bodies take no field they do not list (api.requests.Request refuses unknown fields), and the
    Idempotency-Key header on every POST (every POST view passes it to its store function)."""

    def get_override_parameters(self) -> list[Any]:
        parameters: list[Any] = super().get_override_parameters()
        return [*parameters, IDEMPOTENCY_KEY] if self.method == "POST" else parameters

    def _map_basic_serializer(self, serializer: Any, direction: str) -> dict[str, Any]:
        schema: dict[str, Any] = super()._map_basic_serializer(serializer, direction)  # type: ignore[no-untyped-call]
        if direction == "request" and _is_request(serializer):
            schema["additionalProperties"] = False
        return schema

    def _get_serializer_field_meta(self, field: Any, direction: str) -> dict[str, Any]:
        meta: dict[str, Any] = super()._get_serializer_field_meta(field, direction)  # type: ignore[no-untyped-call]
        style = getattr(field, "style", None)
        example = style.get("example") if isinstance(style, dict) else None
        if example is not None:
            meta["example"] = example
        return meta


class BearerScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    target_class = "api.authentication.BearerAuthentication"
    name = "bearer"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "An API key (kb_…) from the dashboard, or an OAuth access token.",
        }


class SessionScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    target_class = "api.authentication.SessionCsrfAuthentication"
    name = "session"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "apiKey",
            "in": "cookie",
            "name": "sessionid",
            "description": "The dashboard's session; unsafe methods also need the X-CSRFToken header.",
        }


# operationId of a producer → (status, link name, operationId of the consumer, parameters)
LINKS: list[tuple[str, str, str, str, dict[str, str]]] = (
    [
        (op, status, name, target, {"id": NOTE_FROM_BODY})
        for op, status in (("create_note", "201"), ("update_note", "200"), ("patch_note", "200"))
        for name, target in (
            ("ReadNote", "read_note"),
            ("UpdateNote", "update_note"),
            ("PatchNote", "patch_note"),
            ("ListRevisions", "list_revisions"),
            ("ListLinks", "list_links"),
            ("DeleteNote", "delete_note"),
        )
    ]
    + [
        ("remember", "201", "ReadNote", "read_note", {"id": NOTE_FROM_BODY}),
        ("remember", "201", "ListRevisions", "list_revisions", {"id": NOTE_FROM_BODY}),
        ("delete_note", "200", "RestoreNote", "restore_note", {"id": NOTE_FROM_BODY}),
        ("create_project", "201", "ReadProject", "read_project", {"project": "$response.body#/project/slug"}),
        ("create_project", "201", "ListNotes", "list_notes", {"project": "$response.body#/project/slug"}),
        ("create_project", "201", "CreateNote", "create_note", {"project": "$response.body#/project/slug"}),
        ("create_project", "201", "Remember", "remember", {"project": "$response.body#/project/slug"}),
        ("create_api_key", "201", "RevokeKey", "revoke_api_key", {"key_id": "$response.body#/api_key/id"}),
        ("checkpoint", "201", "ReadHandoff", "read_note", {"id": "$response.body#/handoff/id"}),
    ]
    + [
        ("list_projects", "200", name, target, {"project": "$response.body#/projects/0/slug"})
        for name, target in (
            ("ReadFirstProject", "read_project"),
            ("ListNotes", "list_notes"),
            ("CreateNote", "create_note"),
            ("Remember", "remember"),
            ("Checkpoint", "checkpoint"),
            ("GetContext", "get_context"),
        )
    ]
    + [
        ("list_notes", "200", name, target, {"id": "$response.body#/notes/0/id"})
        for name, target in (
            ("ReadFirstNote", "read_note"),
            ("UpdateFirstNote", "update_note"),
            ("PatchFirstNote", "patch_note"),
            ("ListFirstRevisions", "list_revisions"),
        )
    ]
)


def add_links(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """POSTPROCESSING_HOOKS entry: OpenAPI links between operations (see LINKS)."""
    operations = {
        operation["operationId"]: operation
        for path in result.get("paths", {}).values()
        for operation in path.values()
        if isinstance(operation, dict) and "operationId" in operation
    }
    for producer, status, name, consumer, parameters in LINKS:
        if producer not in operations or consumer not in operations:
            raise ValueError(f"schema link {producer} → {consumer}: no such operation")
        answer = operations[producer]["responses"][status]
        answer.setdefault("links", {})[name] = {"operationId": consumer, "parameters": parameters}
    return result
