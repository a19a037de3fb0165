"""Named state changes of OAuth connections (consent, revocation) and the clean-up of registrations
that never obtained a token. The protocol itself is django-oauth-toolkit's (web/oauth/)."""

from __future__ import annotations

import hashlib
import logging
from datetime import datetime, timedelta

from django.db import models, transaction
from django.utils import timezone
from oauth2_provider.models import AccessToken, Application, Grant, RefreshToken
from oauth2_provider.settings import oauth2_settings

from accounts import audit
from accounts.models import Membership, OAuthConnection, Role, User, code_digest
from accounts.principal import principal_for_session

log = logging.getLogger(__name__)

# A registration is anonymous and free, so one that never led to a token is deleted after this long.
UNUSED_REGISTRATION_LIFETIME = timedelta(days=1)


@transaction.atomic
def connect(
    *,
    user: User,
    application: Application,
    code: Grant,
    team_id: int,
    project_id: int | None,
    read_only: bool,
) -> OAuthConnection:
    """Record what the user approved for `application`; the tokens minted for `code` will act so.

    A viewer's connection is read-only whatever was asked: the principal would make it so anyway,
    and the Connected apps page should not promise writes it cannot make."""
    membership = Membership.objects.get(team_id=team_id, user=user)
    connection = OAuthConnection.objects.create(
        user=user,
        application=application,
        team_id=team_id,
        project_id=project_id,
        read_only=read_only or membership.role == Role.VIEWER,
        code=code,
    )
    audit.record(
        principal_for_session(user, team_id),
        "oauth.connected",
        project_id=project_id,
        object_id=connection.public_id,
        application=connection.client_name,
        read_only=connection.read_only,
        project_scoped=project_id is not None,
    )
    return connection


@transaction.atomic
def revoke_connection(connection: OAuthConnection, by: User, now: datetime | None = None) -> None:
    """End the connection now: its refresh tokens are revoked and its access tokens deleted, so
    the next request with any of them is refused."""
    if connection.revoked_at is not None:
        return
    connection.revoked_at = now or timezone.now()
    connection.save(update_fields=["revoked_at"])
    if connection.token_family is not None:
        RefreshToken.revoke_family(connection.token_family)
    audit.record(
        principal_for_session(by, connection.team_id),
        "oauth.revoked",
        team_id=connection.team_id,
        object_id=connection.public_id,
        actor_id=by.pk,
    )


@transaction.atomic
def revoke_replayed_code(code: str, application_id: int, now: datetime | None = None) -> bool:
    """A client presented an authorization code that was already exchanged: RFC 6749 §4.1.2 says the
    tokens issued from it SHOULD be revoked, since whoever holds the code now may hold them too. The
    connection ends as if its user had revoked it. True when a connection was found and revoked."""
    connection = (
        OAuthConnection.objects.select_for_update()
        .filter(code_digest=code_digest(code), application_id=application_id, token_family__isnull=False)
        .first()
    )
    if connection is None:
        return False
    if connection.token_family is not None:
        RefreshToken.revoke_family(connection.token_family)
    first_revocation = connection.revoked_at is None
    if first_revocation:
        connection.revoked_at = now or timezone.now()
        connection.save(update_fields=["revoked_at"])
    log.warning(
        "authorization code replayed for OAuth connection %s (client %s): its tokens are revoked",
        connection.public_id,
        connection.client_name,
    )
    audit.record(
        None,  # the replay came from whoever holds the code, not from the person who connected
        "oauth.code_replayed",
        team_id=connection.team_id,
        object_id=connection.public_id,
        application=connection.client_name,
        already_revoked=not first_revocation,
    )
    return True


def token_of_another_client(token: str, application_id: int) -> bool:
    """Whether `token` is an unrevoked access or refresh token of an application other than
    `application_id` (tokens are stored as SHA-256 checksums only)."""
    checksum = hashlib.sha256(token.encode()).hexdigest()
    foreign_access = AccessToken.objects.filter(token_checksum=checksum).exclude(
        application_id=application_id
    )
    foreign_refresh = RefreshToken.objects.filter(token_checksum=checksum, revoked__isnull=True).exclude(
        application_id=application_id
    )
    return bool(foreign_access.exists() or foreign_refresh.exists())


def delete_unused_registrations(now: datetime | None = None) -> int:
    """Delete dynamically registered clients older than a day that never obtained a token (the
    registration access token does not count), and consents whose code was never exchanged.
    Returns how many registrations were deleted."""
    cutoff = (now or timezone.now()) - UNUSED_REGISTRATION_LIFETIME
    product_token = AccessToken.objects.filter(application=models.OuterRef("pk")).exclude(
        scope=oauth2_settings.DCR_REGISTRATION_SCOPE
    )
    any_refresh = RefreshToken.objects.filter(application=models.OuterRef("pk"))
    used_connection = OAuthConnection.objects.filter(
        application=models.OuterRef("pk"), token_family__isnull=False
    )
    unused = (
        Application.objects.filter(registration_source=Application.RegistrationSource.DCR, created__lt=cutoff)
        .exclude(models.Exists(product_token))
        .exclude(models.Exists(any_refresh))
        .exclude(models.Exists(used_connection))
    )
    with transaction.atomic():
        doomed = list(unused.values_list("pk", flat=True))
        Application.objects.filter(pk__in=doomed).delete()
        OAuthConnection.objects.filter(token_family__isnull=True, created_at__lt=cutoff).delete()
    return len(doomed)
