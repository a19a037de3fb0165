"""Every text field of every model is screened on every write path that can set it.

Each CharField and TextField (and array of them) of the accounts, billing and memory models, and
the OAuth application's name, is either free text, listed with the write paths that set it, each of
which the planting harness plants every secret family through (test_planting.py,
test_rest_planting.py), or listed as not free text with the reason. A new text field that is in
neither list fails here, and so does a listed path that nothing plants through.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.utils import timezone
from oauth2_provider.models import Application

from accounts.errors import Screened
from accounts.models import ApiKey, AuditEvent, Invitation, Team, User
from memory.store.rows import GUARDED
from tests.safety import harness
from tests.safety.write_paths import ACCOUNT_PATHS, MCP_PATHS, REST_PATHS, STORE_PATHS

# Free text, with the write paths (MCP tools, REST operations and store functions of the planting
# harness) that set it. `row_guard` is the pre_save guard every other path saving the row goes
# through (the admin, client registration and its RFC 7592 update, commands): tested below.
SCREENED: dict[str, tuple[str, ...]] = {
    "accounts.User.email": (
        "sign_up",
        "invite_member",
        "row_guard",
    ),  # invited sign-ups take the invited address
    "accounts.User.name": ("sign_up", "sign_up_invited", "update_profile", "row_guard"),
    "accounts.Team.name": ("sign_up", "create_team", "rename_team", "row_guard"),
    "accounts.Team.slug": ("sign_up", "create_team", "row_guard"),  # derived from the name
    "accounts.Invitation.email": ("invite_member", "row_guard"),
    "accounts.ApiKey.name": ("create_api_key", "row_guard"),
    "memory.Project.name": ("create_project", "rename_project", "update_project", "import_project"),
    "memory.Project.slug": ("create_project", "rename_project", "import_project", "start_import"),
    "memory.Project.summary": ("create_project", "update_project", "import_project"),
    "memory.Project.agent_instructions": ("create_project", "update_project", "import_project"),
    "memory.Note.title": ("remember", "save_note", "create_note", "update_note", "import_project"),
    "memory.Note.body": (
        "remember",
        "checkpoint",
        "save_note",
        "patch_note",
        "create_note",
        "update_note",
        "import_project",
    ),
    "memory.Note.tags": ("remember", "rename_tag", "bulk_update_notes", "import_project"),
    "memory.Note.paths": ("remember", "save_note"),
    "memory.Note.source": ("remember",),  # or the client's name, screened as stored with every note write
    "memory.Note.last_edited_client": ("remember", "save_note"),  # the client's name, screened as stored
    "memory.Note.delete_reason": ("delete_note", "bulk_update_notes"),
    "memory.NoteRevision.title": ("save_note", "update_note"),  # copies of screened note values
    "memory.NoteRevision.body": ("save_note", "patch_note", "update_note"),
    "memory.NoteRevision.tags": ("save_note", "rename_tag"),
    "memory.NoteRevision.client": ("save_note",),
    "memory.ScreeningRule.name": ("add_screening_rule",),
    # A pattern is screened like any text; an allowed value skips the gate by definition.
    "memory.ScreeningRule.value": ("add_screening_rule",),
    "memory.TransferJob.name": ("start_import",),
    "memory.TransferJob.slug": ("start_import",),
    "memory.TransferJob.content": ("start_import", "import_project"),  # the staged document
    "memory.IdempotencyRecord.key": ("create_project", "rename_tag", "create_note", "remember"),
    "oauth2_provider.Application.name": ("screen_client_name", "row_guard"),
}

# Not free text: nobody chooses the value, or it is one of a fixed set.
NOT_FREE_TEXT: dict[str, str] = {
    "accounts.User.password": "a salted hash; the password itself is never stored",
    "accounts.Team.public_id": "a random id",
    "accounts.Membership.role": "a choice",
    "accounts.Invitation.public_id": "a random id",
    "accounts.Invitation.role": "a choice",
    "accounts.Invitation.digest": "a SHA-256 digest of the link's secret",
    "accounts.ApiKey.lookup": "random hex",
    "accounts.ApiKey.digest": "a SHA-256 digest",
    "accounts.OAuthConnection.code_digest": "a SHA-256 digest of the exchanged authorization code",
    "accounts.OAuthConnection.public_id": "a random id",
    "accounts.AuditEvent.public_id": "a random id",
    "accounts.AuditEvent.project_slug": "a copy of a project slug, screened when it was stored",
    "accounts.AuditEvent.auth_method": "a choice (accounts.principal.AuthMethod)",
    "accounts.AuditEvent.action": "a name the code gives",
    "accounts.AuditEvent.object_id": "an id, slug or member address the store wrote (screened) first",
    "billing.Plan.code": "set by staff and the plan catalogue, never by a team",
    "memory.Note.review_commit": "a git commit id, hex only (memory.store.code refuses anything else)",
    "billing.Plan.name": "set by staff and the plan catalogue, never by a team",
    "billing.Plan.stripe_price_id": "a Stripe price id, set by staff",
    "billing.Subscription.status": "a choice",
    "billing.Subscription.stripe_customer_id": "an id from a signed Stripe event",
    "billing.Subscription.stripe_subscription_id": "an id from a signed Stripe event",
    "billing.StripeEvent.event_id": "an id from a signed Stripe event",
    "billing.StripeEvent.type": "an event type from a signed Stripe event",
    "billing.StripeEvent.state": "a choice",
    "billing.StripeEvent.outcome": "what the handler says it did",
    "billing.StripeEvent.error": "the handler's error, for staff",
    "billing.PendingCheckout.session_id": "a Checkout Session id Stripe returned",
    "billing.PendingCheckout.url": "the Checkout page Stripe returned",
    "billing.PendingCheckout.outcome": "a choice",
    "billing.KnownSubscription.stripe_subscription_id": "an id from a signed Stripe event",
    "billing.KnownSubscription.status": "a choice",
    "memory.Project.public_id": "a random id",
    "memory.Note.public_id": "a random id",
    "memory.Note.type": "a choice",
    "memory.Note.status": "a choice",
    "memory.Note.visibility": "a choice",
    "memory.Note.content_hash": "a SHA-256 digest",
    "memory.Note.embedding_model": "the configured provider's model name",
    "memory.Note.embedding_hash": "a SHA-256 digest",
    "memory.NoteRevision.type": "a choice",
    "memory.NoteRevision.status": "a choice",
    "memory.NoteLink.kind": "a choice",
    "memory.IdempotencyRecord.credential": "the credential's id (never its secret)",
    "memory.IdempotencyRecord.operation": "a store function's name",
    "memory.IdempotencyRecord.request_hash": "a SHA-256 digest",
    "memory.ScreeningRule.public_id": "a random id",
    "memory.ScreeningRule.kind": "a choice",
    "memory.TransferJob.public_id": "a random id",
    "memory.TransferJob.credential_id": "the credential's id (never its secret)",
    "memory.TransferJob.kind": "a choice",
    "memory.TransferJob.format": "a choice of export formats",
    "memory.TransferJob.status": "a choice",
    "memory.TransferJob.error": "the job's refusal message, which never repeats a screened value",
}

# Free text that is not screened yet, each with why; the list may only shrink.
KNOWN_GAPS: dict[str, str] = {
    "accounts.AuditEvent.client": "the client's self-reported name (MCP clientInfo) is copied into "
    "audit rows unscreened, including the row of a refused write; notes screen it as stored",
}

PLANTED = (
    {path.name for path in MCP_PATHS}
    | {path.name for path in [*STORE_PATHS, *ACCOUNT_PATHS]}
    | {path.operation for path in REST_PATHS}
    | {path.store_function for path in REST_PATHS}
    | {"row_guard"}
)


def _text_fields() -> set[str]:
    models_ = [
        model
        for label in ("accounts", "billing", "memory")
        for model in apps.get_app_config(label).get_models()
    ]
    found = set()
    for model in models_:
        for field in model._meta.concrete_fields:
            base = field.base_field if isinstance(field, ArrayField) else field
            if isinstance(base, models.CharField | models.TextField):
                found.add(f"{model._meta.app_label}.{model.__name__}.{field.name}")
    return found | {"oauth2_provider.Application.name"}


def test_every_model_text_field_is_screened_or_not_free_text():
    fields = _text_fields()
    classified = set(SCREENED) | set(NOT_FREE_TEXT) | set(KNOWN_GAPS)
    assert sorted(fields - classified) == [], "a text field with no known screened write path"
    assert sorted(classified - fields) == [], "a listed field that no model has"
    assert not set(SCREENED) & set(NOT_FREE_TEXT), "a field listed twice"


def test_every_listed_write_path_is_planted():
    named = {path for paths in SCREENED.values() for path in paths}
    assert sorted(named - PLANTED) == []


def _application(name: str) -> Application:
    return Application(
        name=name,
        client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris="http://127.0.0.1/callback",
    )


# A row of each guarded model with the value in one of its free-text fields, saved as the admin or a
# command would save it: straight through the ORM.
GUARDED_ROWS: dict[str, Callable[[Any, str], models.Model]] = {
    "accounts.User.email": lambda cast, s: User(email=f"{s}@example.com"),
    "accounts.User.name": lambda cast, s: User(email="new@example.com", name=s),
    "accounts.Team.name": lambda cast, s: Team(name=s, slug="new-team"),
    "accounts.Team.slug": lambda cast, s: Team(name="New team", slug=s),
    "accounts.ApiKey.name": lambda cast, s: ApiKey(
        team=cast.acme, user=cast.owner, name=s, lookup="0123456789ab", digest="0" * 64
    ),
    "accounts.Invitation.email": lambda cast, s: Invitation(
        team=cast.acme, email=f"{s}@example.com", role="member", digest="1" * 64, expires_at=timezone.now()
    ),
    "oauth2_provider.Application.name": lambda cast, s: _application(f"Agent {s}"),
}


def test_every_row_guard_field_is_planted():
    guarded = {
        f"{model._meta.app_label}.{model.__name__}.{field}"
        for model, fields in GUARDED.items()
        for field in fields
    }
    assert guarded == set(GUARDED_ROWS)
    assert guarded == {field for field, paths in SCREENED.items() if "row_guard" in paths}


@pytest.mark.parametrize("field", sorted(GUARDED_ROWS))
def test_a_row_saved_by_any_path_has_its_names_screened(cast, field):
    planted = [plant for plant in harness.plants(variants=("raw",)) if len(plant.value) <= 50]
    assert planted
    for plant in planted:
        with pytest.raises(Screened):
            GUARDED_ROWS[field](cast, plant.value).save()
    assert harness.leaks(planted) == []
    assert AuditEvent.objects.filter(action="write.screened").exists()


@pytest.mark.django_db
def test_a_plain_oauth_application_name_is_kept():
    application = _application("Claude Desktop")
    application.save()
    assert Application.objects.get(pk=application.pk).name == "Claude Desktop"
