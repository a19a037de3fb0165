from __future__ import annotations

import pytest

from accounts import actions
from accounts.errors import InvalidArgument, PlanLimit
from accounts.models import AuditEvent, Membership, Role
from billing import actions as billing_actions
from billing import caps


def test_member_cap_refuses_past_the_plan(cast):
    newcomer = actions.create_user("nina@acme.test")
    assert caps.members_used(cast.acme.pk) == cast.plan.max_members  # developer plan: 3 members, acme has 3
    with pytest.raises(PlanLimit) as refused:
        billing_actions.add_member(cast.acme, newcomer, Role.MEMBER)
    assert refused.value.details["cap"] == "members"
    assert not Membership.objects.filter(user=newcomer).exists()


def test_add_member_is_audited(cast):
    newcomer = actions.create_user("nina@globex.test")
    billing_actions.add_member(cast.globex, newcomer, Role.VIEWER, actor=cast.principal(cast.outsider))
    event = AuditEvent.objects.get(action="member.added")
    assert (event.team_id, event.actor_id, event.object_id) == (
        cast.globex.pk,
        cast.outsider.pk,
        "nina@globex.test",
    )


def test_role_change_is_audited_and_keeps_an_owner(cast):
    membership = Membership.objects.get(team=cast.acme, user=cast.member)
    actions.change_role(membership, Role.ADMIN, actor=cast.principal(cast.owner))
    event = AuditEvent.objects.get(action="member.role_changed")
    assert event.detail == {"old": "member", "new": "admin"}
    owner = Membership.objects.get(team=cast.acme, user=cast.owner)
    with pytest.raises(InvalidArgument, match="at least one owner"):
        actions.change_role(owner, Role.MEMBER)
    with pytest.raises(InvalidArgument):
        actions.change_role(membership, "superuser")


def test_api_key_cap(cast):
    plan = cast.plan
    plan.max_api_keys = 1
    plan.save()
    billing_actions.issue_api_key(cast.acme, cast.member)
    with pytest.raises(PlanLimit):
        billing_actions.issue_api_key(cast.acme, cast.member)
    # Revoked keys do not count.
    key = cast.acme.api_keys.get()
    actions.revoke_api_key(key)
    billing_actions.issue_api_key(cast.acme, cast.member)
