"""An OAuth access token resolves to a Principal exactly like an API key of the scope chosen on the
consent page, named after the OAuth client; anything not issued for /mcp by a live consent is None."""

from __future__ import annotations

from oauth2_provider.models import AccessToken, RefreshToken

from accounts import oauth
from accounts.models import Membership, OAuthConnection
from accounts.principal import AuthMethod, principal_for_oauth_token
from accounts.site import mcp_url
from tests.accounts.oauth_tokens import issue


def test_a_token_acts_for_its_user_in_the_chosen_team_under_the_clients_name(cast):
    raw, connection = issue(cast.member, cast.acme)
    principal = principal_for_oauth_token(raw)
    assert principal is not None
    assert (principal.user_id, principal.team_id, principal.project_id) == (
        cast.member.pk,
        cast.acme.pk,
        None,
    )
    assert principal.auth_method == AuthMethod.OAUTH
    assert principal.credential_id == f"oauth:{connection.public_id}" and raw not in principal.credential_id
    assert principal.client_name == "Claude Code"
    assert principal.can_write and not principal.can_manage
    connection.refresh_from_db()
    assert connection.last_used_at is not None


def test_project_and_read_only_choices_carry_over(cast):
    raw, _ = issue(cast.owner, cast.acme, project_id=cast.payments.pk, read_only=True, scope="read")
    principal = principal_for_oauth_token(raw)
    assert principal is not None and principal.project_id == cast.payments.pk and not principal.can_write


def test_a_read_scope_token_is_read_only_even_if_the_connection_is_not(cast):
    raw, _ = issue(cast.member, cast.acme, scope="read")
    principal = principal_for_oauth_token(raw)
    assert principal is not None and not principal.can_write


def test_a_viewer_is_read_only_whatever_the_token_says(cast):
    raw, _ = issue(cast.viewer, cast.acme)
    principal = principal_for_oauth_token(raw)
    assert principal is not None and not principal.can_write


def test_two_connections_are_two_credentials(cast):
    first = principal_for_oauth_token(issue(cast.member, cast.acme)[0])
    second = principal_for_oauth_token(issue(cast.member, cast.acme)[0])
    assert first is not None and second is not None and first.rate_limit_key != second.rate_limit_key


def test_refused_tokens(cast):
    assert principal_for_oauth_token("not-a-token") is None
    expired, _ = issue(cast.member, cast.acme, expires_in=-1)
    assert principal_for_oauth_token(expired) is None
    elsewhere, _ = issue(cast.member, cast.acme, resource="https://api.example.com/mcp")
    assert principal_for_oauth_token(elsewhere) is None
    registration, _ = issue(cast.member, cast.acme, scope="oauth2_provider:registration")
    assert principal_for_oauth_token(registration) is None


def test_the_resource_may_differ_by_a_trailing_slash_only(cast):
    raw, _ = issue(cast.member, cast.acme, resource=f"{mcp_url()}/")
    assert principal_for_oauth_token(raw) is not None
    assert principal_for_oauth_token(raw, resource=mcp_url().replace("/mcp", "/other")) is None


def test_the_token_dies_with_the_membership_the_user_or_the_connection(cast):
    raw, connection = issue(cast.member, cast.acme)
    Membership.objects.filter(team=cast.acme, user=cast.member).delete()
    assert principal_for_oauth_token(raw) is None

    raw, _ = issue(cast.owner, cast.acme)
    cast.owner.is_active = False
    cast.owner.save()
    assert principal_for_oauth_token(raw) is None

    raw, connection = issue(cast.viewer, cast.acme)
    oauth.revoke_connection(connection, by=cast.viewer)
    assert principal_for_oauth_token(raw) is None
    assert not AccessToken.objects.filter(user=cast.viewer).exists()
    assert RefreshToken.objects.get(user=cast.viewer).revoked is not None


def test_a_token_without_a_consent_is_refused(cast):
    raw, connection = issue(cast.member, cast.acme)
    OAuthConnection.objects.filter(pk=connection.pk).delete()
    assert principal_for_oauth_token(raw) is None
