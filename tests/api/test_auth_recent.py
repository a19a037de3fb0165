"""REST calls with a Bearer key resolved in the last RECENT_SECONDS run no query for it, and a
revoked key or a deleted project refuses the next call: at once in this process, within
RECENT_SECONDS in another (simulated by a change without signals and the stopped clock advanced)."""

from __future__ import annotations

from django.utils import timezone

from accounts import actions
from accounts.limits import RECENT_SECONDS
from accounts.models import ApiKey, User
from accounts.principal import principal_for_staff
from edge.principals import api_key_principal
from memory import store


def test_rest_calls_with_a_warm_key_run_only_the_endpoints_own_queries(api, django_assert_num_queries):
    assert api.get("/projects").status == 200  # cold: key, role and plan in one query
    with django_assert_num_queries(1):  # the project list itself
        assert api.get("/projects").status == 200


def test_revoking_a_key_refuses_it_at_once_in_this_process(api, cast):
    raw = cast.key(cast.member)
    assert api.as_(raw).get("/projects").status == 200
    key = ApiKey.authenticate(raw)
    assert key is not None
    actions.revoke_api_key(key)
    assert api.as_(raw).get("/projects").status == 401


def test_a_key_revoked_elsewhere_is_refused_once_recent_seconds_pass(api, cast, recent_clock):
    raw = cast.key(cast.member)
    key = ApiKey.authenticate(raw)
    assert key is not None and api.as_(raw).get("/projects").status == 200
    ApiKey.objects.filter(pk=key.pk).update(revoked_at=timezone.now())  # no signal here
    assert api.as_(raw).get("/projects").status == 200  # another process's warm entry
    recent_clock.advance(RECENT_SECONDS)
    assert api.as_(raw).get("/projects").status == 401


def test_deleting_a_project_refuses_the_keys_narrowed_to_it_at_once(api, cast, local_mcp):
    narrowed = cast.key(cast.member, project=cast.website)
    team_wide = cast.key(cast.member)
    assert local_mcp.ok(narrowed, "list_projects")["projects"][0]["slug"] == "website"
    assert api.as_(narrowed).get("/projects").status == 200
    staff = User.objects.create_user(email="staff@knownbase.test", is_staff=True)
    staff_principal = principal_for_staff(staff, cast.acme.pk)
    assert staff_principal is not None
    store.delete_project(staff_principal, "website")
    assert api_key_principal(narrowed) is None
    assert api.as_(narrowed).get("/projects").status == 401
    # The team's other credentials see the project gone on their next call.
    assert [p["slug"] for p in local_mcp.ok(team_wide, "list_projects")["projects"]] == ["payments"]
