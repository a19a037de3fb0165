from __future__ import annotations

from accounts import actions
from accounts.models import Membership
from accounts.principal import principal_for_api_key


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
