"""The store's result declarations are the one description of every answer: the REST schema is built
from them key for key, and what the MCP tools really send conforms to them."""

from __future__ import annotations

import json
import types
import uuid
from collections.abc import Callable
from datetime import timedelta
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

import pytest
from django.db import models
from django.utils import timezone
from oauth2_provider.models import Application, Grant, RefreshToken

from accounts.models import User
from accounts.principal import principal_for_account, principal_for_session, principal_for_staff
from api import responses
from billing import stripe_service
from mcp_gateway.tooling import TOOLS
from memory import inputs, store
from memory.shapes import results, results_accounts, results_review, results_team
from memory.shapes.results import Doc
from tests.api.schema import openapi
from tests.billing.fake_stripe import PRICES, WEBHOOK_SECRET, FakeStripe, signed
from tests.mcp_gateway.state import text_matches_structured

DECLARATIONS = {
    name: value
    for module in (results, results_review, results_team, results_accounts)
    for name, value in vars(module).items()
    if is_typeddict(value) and value.__module__ == module.__name__
}
# Each tool's answer is its store function's declared result.
TOOL_RESULTS: dict[str, Callable[..., Any]] = {
    "get_context": store.get_context,
    "get_changes_since": store.get_changes_since,
    "remember": store.remember,
    "checkpoint": store.checkpoint,
    "search_notes": store.search_notes,
    "get_notes": store.get_notes,
    "save_note": store.create_note,
    "patch_note": store.patch_note,
    "delete_note": store.delete_note,
    "list_note_revisions": store.list_note_revisions,
    "get_note_revision": store.get_note_revision,
    "relate_notes": store.relate_notes,
    "list_projects": store.list_projects,
    "create_project": store.create_project,
    "rename_project": store.rename_project,
    "rename_tag": store.rename_tag,
    "export_project": store.export_project,
    "get_usage": store.get_usage,
    "report_code_change": store.report_code_change,
    "confirm_note": store.confirm_note,
}


def keys(declaration: Any) -> tuple[set[str], set[str]]:
    """All keys of a TypedDict, and the required ones."""
    return set(get_type_hints(declaration)), set(declaration.__required_keys__)


def problems(value: Any, kind: Any, where: str = "$") -> list[str]:
    """Where `value` departs from the declared type `kind` (empty: it conforms)."""
    origin, args = get_origin(kind), get_args(kind)
    if origin is Annotated:
        return problems(value, args[0], where)
    if origin in (NotRequired, Required):
        return problems(value, args[0], where)
    if kind is Any:
        return []
    if kind is None or kind is type(None):
        return [] if value is None else [f"{where}: {value!r} is not null"]
    if origin in (Union, types.UnionType):
        attempts = [problems(value, option, where) for option in args]
        return [] if any(not attempt for attempt in attempts) else min(attempts, key=len)
    if is_typeddict(kind):
        if not isinstance(value, dict):
            return [f"{where}: not an object"]
        declared, required = keys(kind)
        hints = get_type_hints(kind, include_extras=True)
        found = [f"{where}.{key}: not declared" for key in sorted(set(value) - declared)]
        found += [f"{where}.{key}: missing" for key in sorted(required - set(value))]
        for key in sorted(set(value) & declared):
            found += problems(value[key], hints[key], f"{where}.{key}")
        return found
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: not a list"]
        return [p for index, item in enumerate(value) for p in problems(item, args[0], f"{where}[{index}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: not an object"]
        return [p for key, item in value.items() for p in problems(item, args[1], f"{where}.{key}")]
    if origin is Literal:
        return [] if value in args else [f"{where}: {value!r} is not one of {args}"]
    if kind is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        return [] if ok else [f"{where}: {value!r} is not a number"]
    if kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        return [] if ok else [f"{where}: {value!r} is not an integer"]
    return [] if isinstance(value, kind) else [f"{where}: {value!r} is not {kind.__name__}"]


# ------------------------------------------------------------------------------------------------ REST


def test_every_response_component_is_a_store_declaration_with_its_keys():
    components = openapi()["components"]["schemas"]
    answers = {name for name in components if not name.endswith("Request")}
    assert answers - set(DECLARATIONS) == set(), "a response schema described by hand"
    assert {"Note", "Context", "Remembered", "Usage", "ApiKey", "Error"} <= answers
    for name in sorted(answers):
        declared, required = keys(DECLARATIONS[name])
        component = components[name]
        assert set(component["properties"]) == declared, name
        assert set(component.get("required", [])) == required, name


def test_choices_and_nulls_come_from_the_declaration():
    note = openapi()["components"]["schemas"]["Note"]["properties"]
    assert note["type"]["enum"] == list(inputs.NOTE_TYPES)
    assert note["superseded_by"]["nullable"] is True and "nullable" not in note["title"]
    assert note["created_at"]["format"] == "date-time"
    assert note["version"]["description"] == "Increases on every edit; the ETag of the note."


def test_a_field_added_to_a_declaration_is_in_its_schema():
    class Grown(results.Note):
        pinned: Annotated[bool, Doc("Whether the note is pinned.", False)]

    fields = responses.shape(Grown)().fields
    assert set(fields) == set(get_type_hints(results.Note)) | {"pinned"}
    assert fields["pinned"].help_text == "Whether the note is pinned." and fields["pinned"].required


def test_a_field_without_its_description_is_refused():
    class Undescribed(results.Project):
        owner: str

    with pytest.raises(TypeError, match="Doc"):
        responses.shape(Undescribed)


def test_every_declared_field_is_described():
    """Shapes no endpoint publishes too: a model row (a User a page signs in) is the one exception,
    since django-stubs refuses Annotated around a model."""
    undescribed = []
    for name, declaration in DECLARATIONS.items():
        for key, hint in get_type_hints(declaration, include_extras=True).items():
            while get_origin(hint) in (NotRequired, Required):
                hint = get_args(hint)[0]
            described = any(isinstance(meta, Doc) for meta in getattr(hint, "__metadata__", ()))
            if not described and not (isinstance(hint, type) and issubclass(hint, models.Model)):
                undescribed.append(f"{name}.{key}")
    assert undescribed == []


# ------------------------------------------------------------------------------------------------- MCP


def test_every_tool_names_its_store_function():
    assert set(TOOL_RESULTS) == set(TOOLS)
    for name, fn in TOOL_RESULTS.items():
        answer = get_type_hints(fn)["return"]
        options = get_args(answer) if get_origin(answer) in (Union, types.UnionType) else (answer,)
        assert all(is_typeddict(option) for option in options), name


def test_what_each_tool_sends_is_its_declared_result(mcp, cast):
    key = cast.key(cast.owner)
    sent: dict[str, list[Any]] = {}

    def call(tool: str, arguments: dict[str, Any]) -> Any:
        result = mcp.call(key, tool, arguments)
        assert not result.is_error, (tool, result.structured_content)
        assert text_matches_structured(result), tool
        sent.setdefault(tool, []).append(result.structured_content)
        return result.structured_content

    call("list_projects", {})
    slug = call("create_project", {"name": "Shapes Lab", "summary": "Where shapes are checked."})["project"][
        "slug"
    ]
    call("rename_project", {"project": slug, "name": "Shapes Lab Two"})
    first = call(
        "save_note",
        {
            "project": "payments",
            "title": "Ledger",
            "body": "Refunds go through the ledger.",
            "tags": ["db"],
            "paths": ["ledger/**"],
        },
    )["note"]["id"]
    call("report_code_change", {"project": "payments", "commit": "abc1234", "paths": ["ledger/post.py"]})
    call("get_notes", {"ids": [first]})
    call("confirm_note", {"id": first})
    call("save_note", {"id": first, "body": "Refunds always go through the ledger service."})
    call("patch_note", {"id": first, "op": "append", "text": "Amounts are integers in cents."})
    call("list_note_revisions", {"id": first, "include_body": True})
    call("get_note_revision", {"id": first, "version": 1})
    second = call(
        "remember",
        {"project": "payments", "content": "We deploy on Fridays after review.", "type": "decision"},
    )["note"]["id"]
    call("remember", {"project": "payments", "content": "We deploy on Fridays after review."})
    call(
        "checkpoint",
        {
            "project": "payments",
            "summary": "Worked on refunds.",
            "decisions": ["Refunds use the ledger service."],
            "open_items": ["Write the refund test."],
        },
    )
    call("relate_notes", {"from_id": second, "to_id": first, "kind": "depends_on"})
    call("get_context", {"project": "payments", "query": "refunds ledger", "detail": "deep"})
    call("get_changes_since", {"project": "payments"})
    call("search_notes", {"query": "ledger", "include_body": True})
    call("get_notes", {"ids": [first, "n_DoesNotExist0000"]})
    call("rename_tag", {"project": "payments", "old": "db", "new": "database"})
    call("export_project", {"project": "payments"})
    call("get_usage", {})
    call("delete_note", {"id": second})

    assert set(sent) == set(TOOLS)
    found = [
        f"{tool}: {problem}"
        for tool, payloads in sent.items()
        for payload in payloads
        for problem in problems(payload, get_type_hints(TOOL_RESULTS[tool])["return"])
    ]
    assert found == []
    # The optional parts were exercised, not only the bare minimum of each shape.
    context = sent["get_context"][0]
    assert context["sections"] and any("score" in e for s in context["sections"].values() for e in s)
    assert sent["remember"][1]["status"] == "duplicate" and "neighbours" in sent["remember"][0]


def test_the_checker_catches_a_departure():
    note = {"id": "n_1", "title": "T"}
    assert problems(note, results.ContextEntry) == []
    assert problems({**note, "colour": "red"}, results.ContextEntry) == ["$.colour: not declared"]
    assert problems({"title": "T"}, results.ContextEntry) == ["$.id: missing"]
    assert problems({**note, "score": "high"}, results.ContextEntry) == ["$.score: 'high' is not a number"]


# ------------------------------------------------------------------------------- every store function


def returned(fn: Callable[..., Any]) -> tuple[Any, ...]:
    answer = get_type_hints(fn)["return"]
    return get_args(answer) if get_origin(answer) in (Union, types.UnionType) else (answer,)


def test_no_store_function_answers_an_undeclared_mapping():
    functions = {name: getattr(store, name) for name in store.__all__}
    undeclared = [
        name
        for name, fn in functions.items()
        if isinstance(fn, types.FunctionType)
        and "return" in fn.__annotations__
        and any(get_origin(option) is dict or option is dict for option in returned(fn))
    ]
    assert undeclared == []


def test_what_the_account_functions_answer_is_their_declared_result(cast, settings, monkeypatch):
    settings.STRIPE_SECRET_KEY = "sk_test_knownbase"
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
    settings.STRIPE_PRICE_IDS = dict(PRICES)
    monkeypatch.setattr(stripe_service, "HTTP_CLIENT", FakeStripe())
    anonymous, owner = principal_for_account(), cast.principal(cast.owner)
    member = principal_for_account(cast.member)
    sent: list[tuple[Callable[..., Any], Any]] = []

    def call(fn: Callable[..., Any], *arguments: Any) -> Any:
        answer = fn(*arguments)
        sent.append((fn, answer))
        return answer

    made = call(store.sign_up, anonymous, "sam@example.com", "correct horse battery", "Sam Shape")
    newcomer = principal_for_account(made["user"])
    call(store.list_teams, member)
    call(store.find_team, member, "acme")
    call(store.get_team, owner)
    call(store.create_team, member, "Shapes lab")
    call(store.rename_team, owner, "Acme Two")
    call(store.update_profile, member, "Mia M.")
    link = call(store.email_verification, newcomer)
    assert call(store.read_email_verification, anonymous, link["token"]) is not None
    store.mark_email_verified(newcomer, "sam@example.com")
    call(store.change_password, member, "another horse battery", "change")

    store.mark_email_verified(principal_for_account(cast.owner), cast.owner.email)
    call(store.list_members, owner)
    call(store.change_member_role, owner, cast.member.email, "admin")
    call(store.remove_member, owner, cast.viewer.email)  # the plan has room for one more member
    other = call(store.invite_member, owner, "ann@example.com", "viewer")
    call(store.revoke_invitation, owner, other["invitation"]["id"])
    invited = call(store.invite_member, owner, "sam@example.com", "member")
    call(store.list_invitations, owner)
    call(store.get_invitation, anonymous, invited["token"])
    call(store.accept_invitation, newcomer, invited["token"])
    call(store.leave_team, newcomer, cast.acme.pk)

    call(store.consent_choices, member)
    call(store.screen_client_name, anonymous, "Shapes agent")
    app = Application.objects.create(
        name="Shapes agent",
        client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris="http://127.0.0.1/callback",
    )
    grant = Grant.objects.create(
        user=cast.member,
        application=app,
        code="shapes-code",
        expires=timezone.now() + timedelta(minutes=5),
        redirect_uri="http://127.0.0.1/callback",
    )
    call(store.connect_oauth_client, member, app.pk, grant.pk, cast.acme.pk, cast.payments.pk, True)
    family = uuid.uuid4()
    store.bind_oauth_token_family("shapes-code", family)
    RefreshToken.objects.create(
        user=cast.member, application=app, token="shapes-refresh", token_family=family
    )
    connections = call(store.list_connections, member)["connections"]
    assert [c["project_name"] for c in connections] == [cast.payments.name]
    call(store.revoke_connection, member, connections[0]["id"])

    call(store.get_billing, owner)
    call(store.start_checkout, owner, "pro")
    payload = json.dumps({"id": "evt_shapes", "type": "customer.created", "created": 1_893_456_000})
    call(store.receive_stripe_event, payload.encode(), signed(payload))
    call(store.receive_stripe_event, payload.encode(), signed(payload))

    session = principal_for_session(cast.owner, cast.acme.pk)  # a link needs a live credential
    assert session is not None
    export = store.export_project(session, "payments")
    call(store.download_export, export["url"].rsplit("/", 1)[1])
    staff = principal_for_staff(
        User.objects.create_superuser("staff@knownbase.test", "long password"), cast.acme.pk
    )
    assert staff is not None
    call(store.delete_project, staff, "website")

    found = [
        f"{fn.__name__}: {problem}"
        for fn, answer in sent
        for problem in problems(answer, get_type_hints(fn)["return"])
    ]
    assert found == []
    assert [answer["status"] for fn, answer in sent if fn is store.receive_stripe_event] == [
        "received",
        "duplicate",
    ]
