"""Every text field of every model is screened on every write path that can set it.

Each CharField and TextField (and array of them) of the accounts, billing and memory models, and
the OAuth application's name, is either free text, listed with the write paths that set it, each of
which the planting harness plants every secret family through (test_planting.py,
test_rest_planting.py), or listed as not free text with the reason. A new text field that is in
neither list fails here, and so does a listed path that nothing plants through.
"""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib.postgres.fields import ArrayField
from django.db import models
from oauth2_provider.models import Application

from accounts.errors import Screened
from accounts.models import AuditEvent
from tests.safety import harness
from tests.safety.write_paths import ACCOUNT_PATHS, MCP_PATHS, REST_PATHS, STORE_PATHS

# Free text, with the write paths (MCP tools, REST operations and store functions of the planting
# harness) that set it. `oauth_application_saved` is the row guard every path saving an OAuth
# application goes through (registration, its RFC 7592 update, the admin): tested below.
SCREENED: dict[str, tuple[str, ...]] = {
    "accounts.User.email": ("sign_up", "invite_member"),  # an invited sign-up takes the invited address
    "accounts.User.name": ("sign_up", "sign_up_invited", "update_profile"),
    "accounts.Team.name": ("sign_up", "create_team", "rename_team"),
    "accounts.Team.slug": ("sign_up", "create_team"),  # derived from the name, screened as stored
    "accounts.Invitation.email": ("invite_member",),
    "accounts.ApiKey.name": ("create_api_key",),
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
    "oauth2_provider.Application.name": ("screen_client_name", "oauth_application_saved"),
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
    "accounts.OAuthConnection.public_id": "a random id",
    "accounts.AuditEvent.public_id": "a random id",
    "accounts.AuditEvent.project_slug": "a copy of a project slug, screened when it was stored",
    "accounts.AuditEvent.auth_method": "a choice (accounts.principal.AuthMethod)",
    "accounts.AuditEvent.action": "a name the code gives",
    "accounts.AuditEvent.object_id": "an id, slug or member address the store wrote (screened) first",
    "billing.Plan.code": "set by staff and the plan catalogue, never by a team",
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
    | {"oauth_application_saved"}
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


@pytest.mark.django_db
def test_an_oauth_application_saved_by_any_path_has_its_name_screened():
    planted = harness.plants(variants=("raw",))
    for plant in planted:
        if len(plant.value) > 255:
            continue
        with pytest.raises(Screened):
            Application.objects.create(
                name=f"Agent {plant.value}",
                client_type=Application.CLIENT_PUBLIC,
                authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
                redirect_uris="http://127.0.0.1/callback",
            )
    assert not Application.objects.exists()
    assert harness.leaks(planted) == []
    assert AuditEvent.objects.filter(action="write.screened").exists()


@pytest.mark.django_db
def test_a_plain_oauth_application_name_is_kept():
    application = Application.objects.create(
        name="Claude Desktop",
        client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris="http://127.0.0.1/callback",
    )
    assert Application.objects.get(pk=application.pk).name == "Claude Desktop"
