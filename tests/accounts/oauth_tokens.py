"""OAuth tokens as the authorization server leaves them in the database after a consent, for tests
of what they resolve to without running the flow."""

from __future__ import annotations

import secrets
import uuid
from datetime import timedelta

from django.utils import timezone
from oauth2_provider.models import AccessToken, Application, RefreshToken, set_token_value

from accounts.models import OAuthConnection, Team, User
from accounts.site import mcp_url


def dcr_application(name: str = "Claude Code") -> Application:
    return Application.objects.create(
        name=name,
        client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris="http://127.0.0.1/callback",
        registration_source=Application.RegistrationSource.DCR,
    )


def issue(
    user: User,
    team: Team,
    *,
    project_id: int | None = None,
    read_only: bool = False,
    scope: str = "read write",
    resource: str | None = None,
    expires_in: int = 3600,
    application: Application | None = None,
) -> tuple[str, OAuthConnection]:
    """A raw access token and its connection: one consent, one code exchanged, one token family."""
    application = application or dcr_application()
    raw = secrets.token_urlsafe(30)
    access = AccessToken(
        user=user,
        application=application,
        expires=timezone.now() + timedelta(seconds=expires_in),
        scope=scope,
        resource=[resource or mcp_url()],
    )
    set_token_value(access, raw)
    access.save()
    family = uuid.uuid4()
    refresh = RefreshToken(user=user, application=application, access_token=access, token_family=family)
    set_token_value(refresh, secrets.token_urlsafe(30))
    refresh.save()
    connection = OAuthConnection.objects.create(
        user=user,
        application=application,
        team=team,
        project_id=project_id,
        read_only=read_only,
        token_family=family,
    )
    return raw, connection
