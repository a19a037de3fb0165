"""The admin deletes a project through the store: its scoped keys are revoked, the deletion audited;
members, keys and team names are read-only there (they change on the audited pages)."""

from __future__ import annotations

import pytest

from accounts import actions
from accounts.errors import Forbidden
from accounts.models import ApiKey, AuditEvent, User
from accounts.principal import principal_for_api_key
from memory import store
from memory.models import Project


@pytest.fixture
def staff(db):
    return User.objects.create_superuser("staff@knownbase.test", "a long staff password")


def test_staff_delete_a_project_and_its_scoped_keys_stop_working(client, cast, staff):
    _, scoped = actions.issue_api_key(cast.acme, cast.member, project_id=cast.website.pk)
    _, team_wide = actions.issue_api_key(cast.acme, cast.member)
    client.force_login(staff)
    response = client.post(f"/admin/memory/project/{cast.website.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Project.objects.filter(pk=cast.website.pk).exists()
    assert principal_for_api_key(scoped) is None and principal_for_api_key(team_wide) is not None
    event = AuditEvent.objects.get(action="project.deleted")
    assert (event.actor_id, event.team_id, event.object_id, event.auth_method) == (
        staff.pk,
        cast.acme.pk,
        "website",
        "staff",
    )
    assert AuditEvent.objects.filter(action="api_key.revoked", actor=staff).count() == 1


def test_members_cannot_delete_projects_through_the_store(cast):
    with pytest.raises(Forbidden):
        store.delete_project(cast.principal(cast.owner), "website")
    assert Project.objects.filter(pk=cast.website.pk).exists()


def test_memberships_keys_and_team_names_are_read_only_in_the_admin(client, cast, staff):
    client.force_login(staff)
    membership = cast.acme.memberships.get(user=cast.member)
    assert (
        client.post(f"/admin/accounts/membership/{membership.pk}/delete/", {"post": "yes"}).status_code == 403
    )
    assert client.get("/admin/accounts/membership/add/").status_code == 403
    key = ApiKey.objects.create(team=cast.acme, user=cast.member, lookup="0123456789ab", digest="0" * 64)
    assert client.post(f"/admin/accounts/apikey/{key.pk}/change/", {"name": "renamed"}).status_code == 403
    client.post(f"/admin/accounts/team/{cast.acme.pk}/change/", {"name": "Renamed"})
    cast.acme.refresh_from_db()
    assert cast.acme.name == "Acme"
    assert cast.acme.memberships.count() == 3
