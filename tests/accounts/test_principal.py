from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from django.utils import timezone
from oauth2_provider.models import RefreshToken

from accounts import actions
from accounts.models import ApiKey, AuditEvent, Membership
from accounts.principal import (
    AuthMethod,
    principal_for_api_key,
    principal_for_credential,
    principal_for_oauth_token,
    principal_for_session,
)
from memory import store
from memory.models import Note
from tests.accounts.oauth_tokens import issue


def test_team_wide_key_acts_for_its_user_in_its_team(cast):
    principal = principal_for_api_key(cast.key(cast.member))
    assert principal is not None
    assert (principal.user_id, principal.team_id, principal.project_id) == (
        cast.member.pk,
        cast.acme.pk,
        None,
    )
    assert principal.can_write and not principal.can_manage


def test_project_scoped_read_only_key(cast):
    principal = principal_for_api_key(cast.key(cast.owner, project=cast.payments, read_only=True))
    assert principal is not None
    assert principal.project_id == cast.payments.pk
    assert not principal.can_write


def test_viewer_key_is_read_only_whatever_the_key_says(cast):
    principal = principal_for_api_key(cast.key(cast.viewer))
    assert principal is not None and not principal.can_write


def test_owner_can_manage(cast):
    principal = principal_for_api_key(cast.key(cast.owner))
    assert principal is not None and principal.can_manage


def test_key_dies_with_the_membership(cast):
    _, raw = actions.issue_api_key(cast.acme, cast.member)
    Membership.objects.filter(team=cast.acme, user=cast.member).delete()
    assert principal_for_api_key(raw) is None


def test_unknown_key_is_none(cast):
    assert principal_for_api_key("kb_000000000000" + "x" * 40) is None


def test_a_key_principal_names_its_credential_and_how_it_authenticated(cast):
    raw = cast.key(cast.member)
    principal = principal_for_api_key(raw)
    assert principal is not None
    assert principal.auth_method == AuthMethod.API_KEY
    assert principal.credential_id == f"api_key:{raw[:15]}" and raw[15:] not in principal.credential_id
    assert principal.rate_limit_key == principal.credential_id
    # Two keys of one user are two credentials: each has its own rate limit.
    other = principal_for_api_key(cast.key(cast.member))
    assert other is not None and other.rate_limit_key != principal.rate_limit_key


def test_the_real_client_name_replaces_the_default(cast):
    principal = principal_for_api_key(cast.key(cast.member))
    assert principal is not None and principal.client_name == "api-key"
    assert principal.with_client("claude-code").client_name == "claude-code"
    assert principal.with_client("  ").client_name == "api-key"
    assert len(principal.with_client("x" * 500).client_name) == 100


def test_web_session_principal_acts_in_the_chosen_team_only(cast):
    principal = principal_for_session(cast.member, cast.acme.pk)
    assert principal is not None
    assert (principal.auth_method, principal.client_name, principal.team_id) == (
        AuthMethod.SESSION,
        "web",
        cast.acme.pk,
    )
    assert principal_for_session(cast.member, cast.globex.pk) is None
    cast.member.is_active = False
    assert principal_for_session(cast.member, cast.acme.pk) is None


def test_audit_rows_record_client_and_auth_method(cast):
    principal = principal_for_api_key(cast.key(cast.member))
    assert principal is not None
    store.remember(principal.with_client("cursor"), "payments", "Deploys run from main only.")
    event = AuditEvent.objects.filter(action="note.created").latest("pk")
    assert (event.client, event.auth_method) == ("cursor", "api_key")
    assert Note.objects.get(public_id=event.object_id).source == "cursor"


def test_staff_operations_are_named_and_empty_by_default(cast):
    principal = principal_for_session(cast.owner, cast.acme.pk)
    assert principal is not None and not principal.may_staff("moderate")
    staff = replace(principal, staff_operations=frozenset({"moderate"}))
    assert staff.may_staff("moderate") and not staff.may_staff("delete_team")


def test_a_live_key_credential_acts_with_its_scope_today(cast):
    issued = principal_for_api_key(cast.key(cast.member, project=cast.payments, read_only=True))
    assert issued is not None
    again = principal_for_credential(issued.credential_id, cast.acme.pk)
    assert again is not None
    assert (again.user_id, again.team_id, again.project_id, again.read_only, again.auth_method) == (
        cast.member.pk,
        cast.acme.pk,
        cast.payments.pk,
        True,
        AuthMethod.API_KEY,
    )
    assert again.credential_id == issued.credential_id
    # Only in the key's own team.
    assert principal_for_credential(issued.credential_id, cast.globex.pk) is None


def test_a_key_credential_is_no_longer_live_once_revoked_expired_or_its_user_gone(cast):
    def credential() -> tuple[str, ApiKey]:
        principal = principal_for_api_key(cast.key(cast.member))
        assert principal is not None
        return principal.credential_id, ApiKey.objects.get(
            lookup=principal.credential_id[len("api_key:kb_") :]
        )

    revoked, key = credential()
    key.revoke()
    expired, key = credential()
    ApiKey.objects.filter(pk=key.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    left, _ = credential()
    deactivated, _ = credential()
    for name in (revoked, expired):
        assert principal_for_credential(name, cast.acme.pk) is None, name
    Membership.objects.filter(team=cast.acme, user=cast.member).delete()
    assert principal_for_credential(left, cast.acme.pk) is None
    Membership.objects.create(team=cast.acme, user=cast.member, role="member")
    assert principal_for_credential(deactivated, cast.acme.pk) is not None
    cast.member.is_active = False
    cast.member.save()
    assert principal_for_credential(deactivated, cast.acme.pk) is None


def test_a_session_credential_lives_while_the_user_is_an_active_member(cast):
    session = principal_for_session(cast.member, cast.acme.pk)
    assert session is not None
    assert principal_for_credential(session.credential_id, cast.acme.pk) == session
    assert principal_for_credential(session.credential_id, cast.globex.pk) is None
    Membership.objects.filter(team=cast.acme, user=cast.member).delete()
    assert principal_for_credential(session.credential_id, cast.acme.pk) is None


@pytest.mark.parametrize(
    "credential_id",
    [
        "",
        "test:1",
        "api_key:",
        "api_key:kb_",
        "api_key:000000000000",
        "session:",
        "session:x",
        "session:١",
        "oauth:1",
    ],
)
def test_a_credential_that_cannot_be_checked_is_never_live(cast, credential_id):
    assert principal_for_credential(credential_id, cast.acme.pk) is None


def test_an_oauth_connection_credential_lives_until_it_is_revoked(cast):
    raw, connection = issue(cast.member, cast.acme, project_id=cast.payments.pk)
    issued = principal_for_oauth_token(raw)
    assert issued is not None
    again = principal_for_credential(issued.credential_id, cast.acme.pk)
    assert again is not None
    assert (again.user_id, again.project_id, again.auth_method, again.client_name) == (
        cast.member.pk,
        cast.payments.pk,
        AuthMethod.OAUTH,
        "Claude Code",
    )
    assert principal_for_credential(issued.credential_id, cast.globex.pk) is None
    connection.revoked_at = timezone.now()
    connection.save()
    assert principal_for_credential(issued.credential_id, cast.acme.pk) is None


def test_an_oauth_credential_ends_with_its_token_family_or_the_membership(cast):
    raw, _ = issue(cast.member, cast.acme)
    family = principal_for_oauth_token(raw)
    assert family is not None
    # A reused refresh token revokes the whole family: the connection's tokens no longer work.
    RefreshToken.objects.filter(user=cast.member).update(revoked=timezone.now())
    assert principal_for_credential(family.credential_id, cast.acme.pk) is None

    raw, _ = issue(cast.member, cast.acme)
    member = principal_for_oauth_token(raw)
    assert member is not None
    Membership.objects.filter(team=cast.acme, user=cast.member).delete()
    assert principal_for_credential(member.credential_id, cast.acme.pk) is None
