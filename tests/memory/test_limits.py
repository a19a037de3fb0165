"""Every limit is declared once (memory.inputs): the models, the REST schema, the MCP tools' argument
models and the web forms all carry the declared bound.

The walk below reads each field's bound where it takes effect (the model field, the published OpenAPI
schema, the argument model the MCP SDK validates with, the form field) and names the declaration it
must equal; a bound that disagrees fails, and so does a bounded kind of field that has no declaration,
unless EXEMPT says why it needs none. A field bounded by choices (an enum) is bounded by the models'
choices, which memory.inputs reads.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest
from django import forms
from django.apps import apps
from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models

from mcp_gateway.server import build_server
from memory import inputs
from tests.api.schema import METHODS, openapi

Limit = inputs.TextInput | inputs.ListInput | inputs.NumberInput
Range = tuple[int | float | None, int | float | None]

ROOT = Path(__file__).resolve().parents[2]
DOMAIN_APPS = ("accounts", "billing", "memory")
ENTRY_POINT_APPS = ("web", "billing_web", "api", "mcp_gateway", "knownbase", "edge")
# Keyword arguments that bound an input in Django, DRF and pydantic.
BOUND_KEYWORDS = frozenset({"max_length", "max_value", "min_value", "max_items", "le", "ge", "lt", "gt"})


@dataclass(frozen=True)
class Bound:
    """The bound one place puts on one field; value None where it puts none."""

    where: str  # "model:memory.Note", "rest:NoteCreateRequest", "param:list_notes", "mcp:remember", "form:TeamForm"
    field: str  # a list's items are "<field>[]"
    kind: str  # "length", "items" or "range"
    value: int | Range | None

    @property
    def name(self) -> str:
        return f"{self.where}.{self.field}"


# Model fields: each names its declaration.
MODEL_LIMITS: dict[str, Limit] = {
    "model:accounts.User.email": inputs.EMAIL,
    "model:accounts.User.name": inputs.DISPLAY_NAME,
    "model:accounts.Team.public_id": inputs.PUBLIC_ID,
    "model:accounts.Team.name": inputs.TEAM_NAME,
    "model:accounts.Team.slug": inputs.TEAM_SLUG,
    "model:accounts.Invitation.public_id": inputs.PUBLIC_ID,
    "model:accounts.Invitation.email": inputs.EMAIL,
    "model:accounts.Invitation.digest": inputs.DIGEST,
    "model:accounts.ApiKey.name": inputs.API_KEY_NAME,
    "model:accounts.ApiKey.digest": inputs.DIGEST,
    "model:accounts.OAuthConnection.code_digest": inputs.DIGEST,
    "model:accounts.OAuthConnection.public_id": inputs.PUBLIC_ID,
    "model:accounts.AuditEvent.public_id": inputs.PUBLIC_ID,
    "model:accounts.AuditEvent.project_slug": inputs.PROJECT_SLUG,
    "model:accounts.AuditEvent.client": inputs.CLIENT_NAME,
    "model:accounts.AuditEvent.auth_method": inputs.AUTH_METHOD,
    "model:accounts.AuditEvent.action": inputs.ACTION,
    "model:accounts.AuditEvent.object_id": inputs.AUDIT_OBJECT_ID,
    "model:billing.Plan.code": inputs.PLAN_CODE,
    "model:billing.Plan.name": inputs.PLAN_NAME,
    "model:billing.Plan.stripe_price_id": inputs.STRIPE_PRICE_ID,
    "model:billing.Subscription.stripe_customer_id": inputs.STRIPE_ID,
    "model:billing.Subscription.stripe_subscription_id": inputs.STRIPE_ID,
    "model:billing.StripeEvent.event_id": inputs.STRIPE_ID,
    "model:billing.StripeEvent.type": inputs.STRIPE_EVENT_TYPE,
    "model:billing.StripeEvent.outcome": inputs.STRIPE_EVENT_OUTCOME,
    "model:billing.StripeEvent.error": inputs.STRIPE_EVENT_ERROR,
    "model:billing.PendingCheckout.session_id": inputs.STRIPE_ID,
    "model:billing.PendingCheckout.url": inputs.CHECKOUT_URL,
    "model:billing.KnownSubscription.stripe_subscription_id": inputs.STRIPE_ID,
    "model:memory.Project.public_id": inputs.PUBLIC_ID,
    "model:memory.Project.slug": inputs.PROJECT_SLUG,
    "model:memory.Project.name": inputs.PROJECT_NAME,
    "model:memory.Project.summary": inputs.PROJECT_TEXT,
    "model:memory.Project.agent_instructions": inputs.PROJECT_TEXT,
    "model:memory.Note.public_id": inputs.PUBLIC_ID,
    "model:memory.Note.title": inputs.TITLE,
    "model:memory.Note.body": inputs.BODY,
    "model:memory.Note.tags[]": inputs.TAG,
    "model:memory.Note.paths[]": inputs.PATH_PATTERN,
    "model:memory.Note.review_commit": inputs.COMMIT,
    "model:memory.Note.source": inputs.SOURCE,
    "model:memory.Note.last_edited_client": inputs.CLIENT_NAME,
    "model:memory.Note.content_hash": inputs.DIGEST,
    "model:memory.Note.delete_reason": inputs.DELETE_REASON,
    "model:memory.Note.embedding_model": inputs.EMBEDDING_MODEL,
    "model:memory.Note.embedding_hash": inputs.DIGEST,
    "model:memory.NoteRevision.title": inputs.TITLE,
    "model:memory.NoteRevision.body": inputs.BODY,
    "model:memory.NoteRevision.tags[]": inputs.TAG,
    "model:memory.NoteRevision.client": inputs.CLIENT_NAME,
    "model:memory.IdempotencyRecord.credential": inputs.CREDENTIAL,
    "model:memory.IdempotencyRecord.key": inputs.IDEMPOTENCY_KEY,
    "model:memory.IdempotencyRecord.operation": inputs.OPERATION,
    "model:memory.IdempotencyRecord.request_hash": inputs.DIGEST,
    "model:memory.ScreeningRule.public_id": inputs.PUBLIC_ID,
    "model:memory.ScreeningRule.name": inputs.RULE_NAME,
    "model:memory.ScreeningRule.value": inputs.RULE_VALUE,
    "model:memory.TransferJob.public_id": inputs.PUBLIC_ID,
    "model:memory.TransferJob.credential_id": inputs.CREDENTIAL,
    "model:memory.TransferJob.format": inputs.TRANSFER_FORMAT,
    "model:memory.TransferJob.slug": inputs.PROJECT_SLUG,
    "model:memory.TransferJob.name": inputs.PROJECT_NAME,
}

CHECKPOINT_LISTS = ("decisions", "failed_approaches", "next_actions", "open_items")

# Arguments of the entry points, by name; ARGUMENTS_IN lists the names that mean another input in
# one place ("name" of a project, a team, a key, a person or a screening rule).
ARGUMENTS: dict[str, Limit] = {
    "Idempotency-Key": inputs.IDEMPOTENCY_KEY,
    "idempotency_key": inputs.IDEMPOTENCY_KEY,
    "If-Match": inputs.IF_MATCH,
    "id": inputs.NOTE_ID,
    "ids": inputs.NOTE_IDS,
    "ids[]": inputs.NOTE_ID,
    "from_id": inputs.NOTE_ID,
    "to_id": inputs.NOTE_ID,
    "a": inputs.NOTE_ID,
    "b": inputs.NOTE_ID,
    "supersedes": inputs.SUPERSEDES,
    "supersedes[]": inputs.NOTE_ID,
    "title": inputs.TITLE,
    "body": inputs.BODY,
    "content": inputs.BODY,
    "text": inputs.BODY,
    "find": inputs.BODY,
    **dict.fromkeys(CHECKPOINT_LISTS, inputs.CHECKPOINT_ITEMS),
    **dict.fromkeys([f"{items}[]" for items in CHECKPOINT_LISTS], inputs.BODY),
    "summary": inputs.PROJECT_TEXT,
    "agent_instructions": inputs.PROJECT_TEXT,
    "default_context_budget": inputs.PROJECT_CONTEXT_BUDGET,
    "tags": inputs.TAGS,
    "tags[]": inputs.TAG,
    "tag": inputs.TAG,
    "old": inputs.TAG,
    "new": inputs.TAG,
    "add_tags": inputs.TAG_LINE,
    "remove_tags": inputs.TAG_LINE,
    "project": inputs.PROJECT_SLUG,
    "slug": inputs.PROJECT_SLUG,
    "name": inputs.PROJECT_NAME,
    "query": inputs.QUERY,
    "q": inputs.QUERY,
    "reason": inputs.DELETE_REASON,
    "source": inputs.SOURCE,
    "since": inputs.SINCE,
    "updated_after": inputs.SINCE,
    "updated_before": inputs.SINCE,
    "expires_at": inputs.SINCE,
    "cursor": inputs.CURSOR,
    "filters": inputs.FILTERS_QUERY,
    "importance": inputs.IMPORTANCE,
    "version": inputs.VERSION,
    "expected_version": inputs.VERSION,
    "a_version": inputs.VERSION,
    "b_version": inputs.VERSION,
    "author": inputs.EMAIL,
    "email": inputs.EMAIL,
    "username": inputs.EMAIL,
    "password": inputs.PASSWORD,
    "team": inputs.TEAM_NAME,
    "key_id": inputs.API_KEY_ID,
    "action": inputs.ACTION,
    "value": inputs.RULE_VALUE,
    "paths": inputs.NOTE_PATHS,
    "paths[]": inputs.PATH_PATTERN,
    "path": inputs.PATH_PATTERN,
    "commit": inputs.COMMIT,
}
ARGUMENTS_IN: dict[str, Limit] = {
    "rest:ApiKeyCreateRequest.name": inputs.API_KEY_NAME,
    "form:KeyForm.name": inputs.API_KEY_NAME,
    "form:BringInForm.pasted_name": inputs.MEMORY_IMPORT_FILE_NAME,
    "form:TeamForm.name": inputs.TEAM_NAME,
    "form:SignupForm.name": inputs.DISPLAY_NAME,
    "form:InvitedSignupForm.name": inputs.DISPLAY_NAME,
    "form:ScreeningRuleForm.name": inputs.RULE_NAME,
    "form:NoteForm.tags": inputs.TAG_LINE,
    "form:NewNoteForm.tags": inputs.TAG_LINE,
    "form:NewNoteForm.paths": inputs.PATH_LINES,
    "form:NoteForm.paths": inputs.PATH_LINES,
    "mcp:checkpoint.summary": inputs.BODY,
    "rest:CheckpointRequest.summary": inputs.BODY,
    "mcp:search_notes.limit": inputs.SEARCH_LIMIT,
    "param:search_notes.limit": inputs.SEARCH_LIMIT,
    "mcp:get_changes_since.limit": inputs.FEED_LIMIT,
    "param:get_changes.limit": inputs.FEED_LIMIT,
    "param:list_notes.limit": inputs.LIST_LIMIT,
    "mcp:list_note_revisions.limit": inputs.REVISIONS_LIMIT,
    "param:list_revisions.limit": inputs.REVISIONS_LIMIT,
    "mcp:get_context.max_tokens": inputs.CONTEXT_MAX_TOKENS,
    "param:get_context.max_tokens": inputs.CONTEXT_MAX_TOKENS,
    "param:get_context.budget": inputs.CONTEXT_MAX_TOKENS,
    "form:ContextPreviewForm.max_tokens": inputs.CONTEXT_MAX_TOKENS,
    "mcp:get_changes_since.max_tokens": inputs.FEED_MAX_TOKENS,
    "param:get_changes.max_tokens": inputs.FEED_MAX_TOKENS,
    # The files a caller names, as opposed to a note's own globs.
    "mcp:get_context.paths": inputs.PATHS_PER_CALL,
    "param:get_context.paths": inputs.PATHS_PER_CALL,
    "mcp:search_notes.paths": inputs.PATHS_PER_CALL,
    "param:search_notes.paths": inputs.PATHS_PER_CALL,
    "mcp:report_code_change.paths": inputs.PATHS_PER_CALL,
    "rest:CodeChangeRequest.paths": inputs.PATHS_PER_CALL,
    "param:read_transfer_job.job": inputs.PUBLIC_ID,
    "param:retry_transfer_job.job": inputs.PUBLIC_ID,
}

# Fields that carry no declared limit, and why none is needed. "<where>.*" covers a whole form.
EXEMPT: dict[str, str] = {
    "model:accounts.User.password": "Django's password hash (AbstractBaseUser), not what people type",
    "model:accounts.ApiKey.lookup": "generated: exactly the key format's lookup length (accounts.models)",
    "model:memory.Note.tags": "PostgreSQL keeps no array size (the store caps the count at TAGS)",
    "model:memory.NoteRevision.tags": "PostgreSQL keeps no array size (copied from a note's tags)",
    "model:memory.Note.paths": "PostgreSQL keeps no array size (the store caps the count at NOTE_PATHS)",
    "model:memory.TransferJob.error": "written by the server: the failure it recorded",
    "model:memory.TransferJob.content": "an uploaded file, bounded in bytes by settings.IMPORT_MAX_BYTES",
    "form:BringInForm.*": "files' text (pasted or uploaded), bounded in bytes together by the store "
    "(inputs.MEMORY_IMPORT_BYTES); the pasted file's name is declared (ARGUMENTS_IN)",
    "form:ConfirmBringInForm.*": "the previewed upload sent back whole, bounded by the store "
    "(inputs.MEMORY_IMPORT_BYTES) and by the form size the server takes",
    "form:ConsentForm.*": "the OAuth request's parameters, carried through the consent page and "
    "validated by oauthlib against the registered client",
}


def declared_for_model(bound: Bound) -> Limit | None:
    return MODEL_LIMITS.get(bound.name)


def declared_for_argument(bound: Bound) -> Limit | None:
    return ARGUMENTS_IN.get(bound.name) or ARGUMENTS.get(bound.field)


def _exempt(bound: Bound) -> bool:
    return bound.name in EXEMPT or f"{bound.where}.*" in EXEMPT


def disagreements(bounds: Iterable[Bound], declared: Callable[[Bound], Limit | None]) -> list[str]:
    """What is wrong with each bound against its declaration, one line per field, sorted."""
    found: set[str] = set()
    for bound in bounds:
        if _exempt(bound):
            continue
        limit = declared(bound)
        if limit is None:
            found.add(f"{bound.name}: no declared limit ({bound.kind} {bound.value})")
            continue
        expected: int | Range
        if bound.kind == "length" and isinstance(limit, inputs.TextInput):
            expected = limit.max_length
        elif bound.kind == "items" and isinstance(limit, inputs.ListInput):
            expected = limit.max_items
        elif bound.kind == "range" and isinstance(limit, inputs.NumberInput):
            expected = (limit.minimum, limit.maximum)
        else:
            found.add(f"{bound.name}: a {bound.kind} bound, but declared as {limit}")
            continue
        if bound.value != expected:
            found.add(f"{bound.name}: {bound.kind} {bound.value}, declared {expected}")
    return sorted(found)


# Where the bounds are read.


def choice_fields() -> Iterator[models.CharField[Any, Any]]:
    for app in DOMAIN_APPS:
        for model in apps.get_app_config(app).get_models():
            for field in model._meta.concrete_fields:
                if isinstance(field, models.CharField) and field.choices:
                    yield field


def model_bounds(app_labels: Iterable[str] = DOMAIN_APPS) -> Iterator[Bound]:
    for app in app_labels:
        for model in apps.get_app_config(app).get_models():
            where = f"model:{model._meta.label}"
            for field in model._meta.concrete_fields:
                if isinstance(field, ArrayField):
                    yield Bound(where, field.name, "items", field.size)
                    yield Bound(where, f"{field.name}[]", "length", field.base_field.max_length)
                elif isinstance(field, models.CharField | models.TextField) and not field.choices:
                    yield Bound(where, field.name, "length", field.max_length)


def _resolve(schema: dict[str, Any], components: Mapping[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if isinstance(ref, str):
        return _resolve(components[ref.rsplit("/", 1)[-1]], components)
    return schema


def json_bounds(
    where: str, field: str, schema: dict[str, Any], components: Mapping[str, Any]
) -> Iterator[Bound]:
    """The bounds of one JSON-schema property (pydantic's or drf-spectacular's)."""
    schema = _resolve(schema, components)
    options = [
        _resolve(option, components)
        for key in ("anyOf", "oneOf", "allOf")
        for option in schema.get(key, [])
        if option.get("type") != "null"
    ]
    options = [option for option in options if option.get("enum") != [None]]
    if options:
        for option in options:
            yield from json_bounds(
                where, field, {**schema, **option, "anyOf": [], "oneOf": [], "allOf": []}, components
            )
        return
    if "enum" in schema or "const" in schema:
        return  # bounded by its choices
    kind = schema.get("type")
    if kind == "string":
        yield Bound(where, field, "length", schema.get("maxLength"))
    elif kind in ("integer", "number"):
        yield Bound(where, field, "range", (schema.get("minimum"), schema.get("maximum")))
    elif kind == "array":
        if "enum" in _resolve(schema.get("items", {}), components):
            return  # a set of choices: bounded by the choices
        yield Bound(where, field, "items", schema.get("maxItems"))
        yield from json_bounds(where, f"{field}[]", schema.get("items", {}), components)


def rest_bounds(schema: Mapping[str, Any]) -> Iterator[Bound]:
    """Every parameter and request body property of every operation of the OpenAPI schema."""
    components = schema["components"]["schemas"]
    for item in schema["paths"].values():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            for parameter in operation.get("parameters", []):
                yield from json_bounds(
                    f"param:{operation['operationId']}",
                    parameter["name"],
                    parameter.get("schema", {}),
                    components,
                )
            for media in operation.get("requestBody", {}).get("content", {}).values():
                ref = media["schema"].get("$ref", "")
                where = f"rest:{ref.rsplit('/', 1)[-1]}" if ref else f"rest:{operation['operationId']}"
                body = _resolve(media["schema"], components)
                for field, property_schema in body.get("properties", {}).items():
                    yield from json_bounds(where, field, property_schema, components)


def mcp_schemas() -> dict[str, dict[str, Any]]:
    """Each tool's full argument schema: the one the SDK validates with, before compact_schema drops
    the length limits from the published copy."""
    server = build_server(http=False)
    return {
        tool.name: tool.fn_metadata.arg_model.model_json_schema()
        for tool in server._tool_manager.list_tools()
    }


def mcp_bounds(schemas: Mapping[str, dict[str, Any]]) -> Iterator[Bound]:
    for tool, schema in schemas.items():
        components = schema.get("$defs", {})
        for field, property_schema in schema.get("properties", {}).items():
            yield from json_bounds(f"mcp:{tool}", field, property_schema, components)


def entry_point_forms() -> list[type[forms.Form]]:
    """The forms of the entry points: every one a page uses is loaded with the URLconf's views."""
    import_module(settings.ROOT_URLCONF)
    found: list[type[forms.Form]] = []
    pending: list[type[forms.Form]] = [forms.Form]
    while pending:
        for subclass in pending.pop().__subclasses__():
            pending.append(subclass)
            if subclass.__module__.split(".")[0] in ENTRY_POINT_APPS:
                found.append(subclass)
    return found


def _number(value: object) -> int | float | None:
    return value if isinstance(value, int | float) else None


def form_bounds(form_classes: Iterable[type[forms.Form]]) -> Iterator[Bound]:
    for form_class in form_classes:
        where = f"form:{form_class.__name__}"
        for field_name, field in form_class.base_fields.items():
            if isinstance(field, forms.ChoiceField):
                continue  # bounded by its choices
            if isinstance(field, forms.CharField):
                yield Bound(where, field_name, "length", field.max_length)
            elif isinstance(field, forms.IntegerField | forms.FloatField | forms.DecimalField):
                yield Bound(where, field_name, "range", (_number(field.min_value), _number(field.max_value)))


def literal_bounds(root: Path = ROOT) -> list[str]:
    """Bounds written as number literals in the apps' source: each is a second declaration, even
    while it agrees. A choice column's width (a call that also passes choices) is checked against
    its choices instead."""
    found = []
    for app in (*DOMAIN_APPS, *ENTRY_POINT_APPS):
        for path in sorted((root / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if not isinstance(node, ast.Call) or any(k.arg == "choices" for k in node.keywords):
                    continue
                for keyword in node.keywords:
                    value = keyword.value
                    if keyword.arg not in BOUND_KEYWORDS or not isinstance(value, ast.Constant):
                        continue
                    number = value.value
                    if isinstance(number, int | float) and not isinstance(number, bool):
                        found.append(f"{path.relative_to(root)}:{value.lineno} {keyword.arg}={number}")
    return found


# The walk.


def test_no_bound_is_written_as_a_literal() -> None:
    assert literal_bounds() == []


def test_every_model_text_field_has_its_declared_length() -> None:
    bounds = list(model_bounds())
    assert len(bounds) > len(MODEL_LIMITS) // 2  # the walk found the models
    assert disagreements(bounds, declared_for_model) == []


def test_every_choice_column_fits_its_choices() -> None:
    for field in choice_fields():
        longest = max(len(str(value)) for value, _ in field.flatchoices)
        assert field.max_length is not None
        assert longest <= field.max_length, f"{field.model._meta.label}.{field.name}"


def test_the_rest_schema_carries_the_declared_limits() -> None:
    bounds = list(rest_bounds(openapi()))
    assert {"rest:NoteCreateRequest.title", "param:list_notes.limit"} <= {b.name for b in bounds}
    assert disagreements(bounds, declared_for_argument) == []


def test_the_mcp_tools_validate_the_declared_limits() -> None:
    bounds = list(mcp_bounds(mcp_schemas()))
    assert {"mcp:remember.title", "mcp:get_notes.ids[]"} <= {b.name for b in bounds}
    assert disagreements(bounds, declared_for_argument) == []


def test_the_web_forms_carry_the_declared_limits() -> None:
    form_classes = entry_point_forms()
    assert {"NoteForm", "TeamForm", "KeyForm", "ProjectSettingsForm"} <= {f.__name__ for f in form_classes}
    assert disagreements(form_bounds(form_classes), declared_for_argument) == []


def test_every_entry_of_the_tables_here_names_a_field_that_exists() -> None:
    models_seen = {b.name for b in model_bounds()} | {
        f"model:{f.model._meta.label}.{f.name}" for f in choice_fields()
    }
    arguments = [
        *rest_bounds(openapi()),
        *mcp_bounds(mcp_schemas()),
        *form_bounds(entry_point_forms()),
    ]
    forms_seen = {f"form:{form_class.__name__}" for form_class in entry_point_forms()}
    assert set(MODEL_LIMITS) - models_seen == set()
    assert set(ARGUMENTS_IN) - {b.name for b in arguments} == set()
    assert set(ARGUMENTS) - {b.field for b in arguments} == set()
    stale = {key for key in EXEMPT if key not in models_seen and key.removesuffix(".*") not in forms_seen}
    assert stale == set()


def test_every_declared_number_has_its_default_in_range() -> None:
    for name in dir(inputs):
        spec = getattr(inputs, name)
        if isinstance(spec, inputs.NumberInput) and spec.default is not None:
            assert spec.minimum <= spec.default <= spec.maximum, name


# The checker catches what it is for.


def test_a_model_field_with_a_wrong_literal_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    title = apps.get_model("memory", "Note")._meta.get_field("title")
    monkeypatch.setattr(title, "max_length", inputs.TITLE.max_length - 1)
    assert disagreements(model_bounds(["memory"]), declared_for_model) == [
        f"model:memory.Note.title: length {inputs.TITLE.max_length - 1}, declared {inputs.TITLE.max_length}"
    ]


def test_a_rest_property_with_a_wrong_bound_is_caught() -> None:
    schema = copy.deepcopy(openapi())
    schema["components"]["schemas"]["NoteCreateRequest"]["properties"]["title"]["maxLength"] = 301
    assert disagreements(rest_bounds(schema), declared_for_argument) == [
        f"rest:NoteCreateRequest.title: length 301, declared {inputs.TITLE.max_length}"
    ]


def test_an_mcp_argument_with_a_wrong_or_missing_bound_is_caught() -> None:
    schemas = copy.deepcopy(mcp_schemas())
    remember = schemas["remember"]["properties"]
    remember["tags"]["anyOf"][0]["maxItems"] = 21
    del remember["title"]["anyOf"][0]["maxLength"]
    assert disagreements(mcp_bounds({"remember": schemas["remember"]}), declared_for_argument) == [
        f"mcp:remember.tags: items 21, declared {inputs.TAGS.max_items}",
        f"mcp:remember.title: length None, declared {inputs.TITLE.max_length}",
    ]


def test_a_form_field_with_a_wrong_literal_or_no_declaration_is_caught() -> None:
    class PlantedForm(forms.Form):
        title = forms.CharField(max_length=299)
        nickname = forms.CharField(max_length=80)
        limit = forms.IntegerField(min_value=1, max_value=10)

    assert disagreements(form_bounds([PlantedForm]), declared_for_argument) == [
        "form:PlantedForm.limit: no declared limit (range (1, 10))",
        "form:PlantedForm.nickname: no declared limit (length 80)",
        f"form:PlantedForm.title: length 299, declared {inputs.TITLE.max_length}",
    ]


def test_a_literal_bound_in_the_source_is_caught(tmp_path: Path) -> None:
    for app in (*DOMAIN_APPS, *ENTRY_POINT_APPS):
        (tmp_path / app).mkdir()
    (tmp_path / "web" / "planted.py").write_text(
        "from django import forms\n\n"
        "class PlantedForm(forms.Form):\n"
        "    name = forms.CharField(max_length=100)\n"
        "    role = forms.CharField(max_length=10, choices=[('a', 'A')])\n"
    )
    assert literal_bounds(tmp_path) == ["web/planted.py:4 max_length=100"]
