"""The OpenAPI schema and docs: served without a credential, every operation summarised, every field
described with an example, and the serializers' limits exactly the one input declaration."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.staticfiles import finders
from rest_framework import serializers

from api import requests
from memory import inputs
from tests.api.schema import openapi, operations

pytestmark = pytest.mark.django_db


def test_schema_is_served_as_openapi_3_without_a_credential(client):
    answer = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert answer.status_code == 200
    schema = json.loads(answer.content)
    assert schema["openapi"].startswith("3.") and "/api/v1/projects/{project}/notes" in schema["paths"]
    assert schema["components"]["securitySchemes"]["bearer"] == {
        "type": "http",
        "scheme": "bearer",
        "description": "An API key (kb_…) from the dashboard, or an OAuth access token.",
    }


def test_docs_are_served_with_local_assets_only(client):
    answer = client.get("/api/docs/")
    assert answer.status_code == 200
    page = answer.content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert any("drf_spectacular_sidecar" in src for src in sources), sources
    assert not [src for src in sources if src.startswith(("http:", "https:", "//"))], sources
    # The assets are static files of an installed app: collectstatic gathers them like the admin's.
    local = [src.split("/static/", 1)[1] for src in sources if "/static/" in src]
    assert local and all(finders.find(path) for path in local), local


def test_every_endpoint_the_issue_lists_is_there():
    assert set(operations()) == {
        "list_projects", "create_project", "read_project", "update_project", "rename_tag",
        "list_notes", "create_note", "read_notes", "read_note", "update_note", "patch_note", "delete_note",
        "restore_note", "list_revisions", "read_revision", "restore_revision",
        "list_links", "create_link", "delete_link", "remember", "checkpoint",
        "get_context", "render_project", "get_changes", "search_notes", "export_project", "import_project",
        "import_memory",
        "read_transfer_job", "retry_transfer_job",
        "get_usage", "list_api_keys", "create_api_key", "revoke_api_key",
        "report_code_change", "confirm_note",
    }  # fmt: skip


def test_every_operation_has_a_summary_a_description_and_error_answers():
    for name, (_, _, operation) in operations().items():
        assert operation.get("summary") and operation.get("description"), name
        assert "default" in operation["responses"] and "401" in operation["responses"], name
        assert any(code.startswith("2") for code in operation["responses"]), name


def _properties(schema, where):
    for name, prop in (schema.get("properties") or {}).items():
        yield f"{where}.{name}", prop
        if prop.get("type") == "array" and "properties" not in prop.get("items", {}):
            items = prop.get("items", {})
            if "$ref" not in items:
                yield f"{where}.{name}[]", items


def test_every_field_and_parameter_has_a_description_and_an_example():
    problems = []
    for component, schema in openapi()["components"]["schemas"].items():
        for where, prop in _properties(schema, component):
            nested = "$ref" in prop or "$ref" in prop.get("items", {}) or "allOf" in prop
            if not prop.get("description"):
                problems.append(f"{where}: no description")
            if not nested and "example" not in prop:
                problems.append(f"{where}: no example")
    for name, (_, _, operation) in operations().items():
        for parameter in operation.get("parameters", []):
            if not parameter.get("description"):
                problems.append(f"{name} {parameter['name']}: no description")
            if "example" not in parameter.get("schema", {}):
                problems.append(f"{name} {parameter['name']}: no example")
    assert problems == []


TEXT_FIELDS = {
    (requests.NoteCreate, "title"): inputs.TITLE,
    (requests.NoteCreate, "body"): inputs.BODY,
    (requests.NoteUpdate, "title"): inputs.TITLE,
    (requests.NotePatch, "text"): inputs.BODY,
    (requests.NotePatch, "find"): inputs.BODY,
    (requests.NoteDeleteQuery, "reason"): inputs.DELETE_REASON,
    (requests.Remember, "content"): inputs.BODY,
    (requests.Remember, "source"): inputs.SOURCE,
    (requests.ProjectCreate, "name"): inputs.PROJECT_NAME,
    (requests.ProjectCreate, "slug"): inputs.PROJECT_SLUG,
    (requests.ProjectUpdate, "summary"): inputs.PROJECT_TEXT,
    (requests.ProjectUpdate, "agent_instructions"): inputs.PROJECT_TEXT,
    (requests.TagRename, "new"): inputs.TAG,
    (requests.LinkCreate, "to_id"): inputs.NOTE_ID,
    (requests.ContextQuery, "query"): inputs.QUERY,
    (requests.ChangesQuery, "cursor"): inputs.CURSOR,
    (requests.ChangesQuery, "since"): inputs.SINCE,
    (requests.NoteListQuery, "cursor"): inputs.CURSOR,
    (requests.ApiKeyCreate, "name"): inputs.API_KEY_NAME,
}
LIST_FIELDS = {
    (requests.NoteCreate, "tags"): (inputs.TAGS, inputs.TAG),
    (requests.Remember, "supersedes"): (inputs.SUPERSEDES, inputs.NOTE_ID),
    (requests.Checkpoint, "decisions"): (inputs.CHECKPOINT_ITEMS, inputs.BODY),
    (requests.SearchQuery, "tags"): (inputs.TAGS, inputs.TAG),
    (requests.NotesBatchQuery, "ids"): (inputs.NOTE_IDS, inputs.NOTE_ID),
}
NUMBER_FIELDS = {
    (requests.NoteCreate, "importance"): inputs.IMPORTANCE,
    (requests.NoteUpdate, "expected_version"): inputs.VERSION,
    (requests.NoteListQuery, "limit"): inputs.LIST_LIMIT,
    (requests.ChangesQuery, "limit"): inputs.FEED_LIMIT,
    (requests.ChangesQuery, "max_tokens"): inputs.FEED_MAX_TOKENS,
    (requests.ContextQuery, "max_tokens"): inputs.CONTEXT_MAX_TOKENS,
    (requests.ContextQuery, "budget"): inputs.CONTEXT_MAX_TOKENS,
    (requests.SearchQuery, "limit"): inputs.SEARCH_LIMIT,
    (requests.RevisionsQuery, "limit"): inputs.REVISIONS_LIMIT,
}
CHOICE_FIELDS = {
    (requests.NoteCreate, "type"): inputs.NOTE_TYPES,
    (requests.NoteCreate, "status"): inputs.NOTE_STATUSES,
    (requests.NoteCreate, "visibility"): inputs.VISIBILITIES,
    (requests.LinkCreate, "kind"): inputs.LINK_KINDS,
    (requests.NotePatch, "op"): inputs.PATCH_OPS,
    (requests.ContextQuery, "detail"): inputs.DETAIL_LEVELS,
    (requests.ExportQuery, "format"): inputs.EXPORT_FORMATS,
    (requests.ContextQuery, "format"): inputs.CONTEXT_FORMATS,
    (requests.RenderQuery, "target"): inputs.RENDER_TARGETS,
    (requests.NoteListQuery, "sort"): inputs.NOTE_SORTS,
}


def _field(serializer, name):
    return serializer().fields[name]


def _max_length(field):
    return next(v.limit_value for v in field.validators if v.__class__.__name__ == "MaxLengthValidator")


def test_serializer_limits_are_the_declarations():
    for (serializer, name), text in TEXT_FIELDS.items():
        field = _field(serializer, name)
        assert (field.max_length, _max_length(field)) == (text.max_length, text.max_length), name
    for (serializer, name), (many, item) in LIST_FIELDS.items():
        field = _field(serializer, name)
        assert (field.max_length, field.child.max_length) == (many.max_items, item.max_length), name
    for (serializer, name), number in NUMBER_FIELDS.items():
        field = _field(serializer, name)
        assert (field.min_value, field.max_value) == (number.minimum, number.maximum), name
    for (serializer, name), choices in CHOICE_FIELDS.items():
        assert list(_field(serializer, name).choices) == list(choices), name


def test_every_request_field_is_bounded_by_a_declaration():
    declared = [
        spec
        for spec in vars(inputs).values()
        if isinstance(spec, inputs.TextInput | inputs.ListInput | inputs.NumberInput)
    ]
    lengths = {spec.max_length for spec in declared if isinstance(spec, inputs.TextInput)}
    items = {spec.max_items for spec in declared if isinstance(spec, inputs.ListInput)}
    ranges = {(spec.minimum, spec.maximum) for spec in declared if isinstance(spec, inputs.NumberInput)}
    choices = {tuple(v) for k, v in vars(inputs).items() if k.isupper() and isinstance(v, tuple)}
    problems = []
    for serializer in requests.Request.__subclasses__():
        for name, field in serializer().fields.items():
            where = f"{serializer.__name__}.{name}"
            child = getattr(field, "child", None)
            if isinstance(field, serializers.ListField) and isinstance(child, serializers.ChoiceField):
                field = child
            elif isinstance(field, serializers.ListField):
                if field.max_length not in items or getattr(child, "max_length", None) not in lengths:
                    problems.append(where)
                continue
            if isinstance(field, serializers.ChoiceField):
                if tuple(field.choices) not in choices:
                    problems.append(where)
            elif isinstance(field, serializers.CharField):
                if field.max_length not in lengths:
                    problems.append(where)
            elif isinstance(field, serializers.IntegerField | serializers.FloatField) and (
                (field.min_value, field.max_value) not in ranges
            ):
                problems.append(where)
    assert problems == []


def test_the_schema_publishes_the_declared_limits():
    note = openapi()["components"]["schemas"]["NoteCreateRequest"]["properties"]
    assert note["title"]["maxLength"] == inputs.TITLE.max_length
    assert note["tags"]["maxItems"] == inputs.TAGS.max_items
    assert (note["importance"]["minimum"], note["importance"]["maximum"]) == (0, 1)
    assert [v for v in note["type"]["enum"] if v is not None] == list(inputs.NOTE_TYPES)
