"""API keys through the store (owners and admins): create, list and revoke, within the plan's cap."""

from __future__ import annotations

import pytest

from accounts.errors import Forbidden, InvalidArgument, NotFound, PlanLimit
from accounts.models import ApiKey, AuditEvent
from accounts.principal import principal_for_api_key
from memory import store


def prefix(raw):
    key = ApiKey.authenticate(raw)
    assert key is not None
    return key.display_prefix


def test_owner_creates_a_project_scoped_read_only_key_that_works(cast):
    result = store.create_api_key(
        cast.principal(cast.owner), "CI", project="website", read_only=True, expires_at="2099-01-01T00:00:00Z"
    )
    key = result["api_key"]
    assert (key["name"], key["project"], key["read_only"], key["user"]) == (
        "CI",
        "website",
        True,
        "olivia@acme.test",
    )
    assert key["expires_at"] == "2099-01-01T00:00:00Z" and result["key"].startswith(key["id"])
    principal = principal_for_api_key(result["key"])
    assert principal is not None
    assert (principal.project_id, principal.read_only, principal.user_id) == (
        cast.website.pk,
        True,
        cast.owner.pk,
    )
    assert AuditEvent.objects.filter(action="api_key.created", object_id=key["id"]).exists()


def test_list_shows_the_teams_usable_keys_without_secrets(cast):
    owner = cast.principal(cast.owner)
    made = store.create_api_key(owner, "laptop")
    cast.key(cast.member)  # another member's key: owners manage every key of the team
    cast.key(cast.outsider)
    listed = store.list_api_keys(owner)["api_keys"]
    assert {k["user"] for k in listed} == {"olivia@acme.test", "mia@acme.test"}
    assert made["key"] not in repr(listed)
    store.revoke_api_key(owner, made["api_key"]["id"])
    assert made["api_key"]["id"] not in {k["id"] for k in store.list_api_keys(owner)["api_keys"]}


def test_revoke_ends_the_key_and_is_idempotent(cast):
    owner = cast.principal(cast.owner)
    raw = cast.key(cast.member)
    key_id = prefix(raw)
    result = store.revoke_api_key(owner, key_id)
    assert result["status"] == "revoked" and result["api_key"]["revoked_at"] is not None
    assert principal_for_api_key(raw) is None
    assert store.revoke_api_key(owner, key_id)["status"] == "revoked"
    assert AuditEvent.objects.filter(action="api_key.revoked").count() == 1


def test_a_key_of_another_team_is_not_found(cast):
    foreign = prefix(cast.key(cast.outsider))
    for key_id in (foreign, "kb_doesnotexist", foreign.removeprefix("kb_")):
        with pytest.raises(NotFound):
            store.revoke_api_key(cast.principal(cast.owner), key_id)
    assert ApiKey.objects.filter(revoked_at__isnull=False).count() == 0


@pytest.mark.parametrize("who", ["member", "viewer", "scoped_owner", "read_only_owner"])
def test_only_owners_and_admins_with_team_wide_write_credentials_manage_keys_others_list_their_own(cast, who):
    principal = {
        "member": cast.principal(cast.member),
        "viewer": cast.principal(cast.viewer),
        "scoped_owner": cast.principal(cast.owner, project=cast.payments),
        "read_only_owner": cast.principal(cast.owner, read_only=True),
    }[who]
    own_key = prefix(cast.key(_user(cast, who)))
    for call in (
        lambda: store.create_api_key(principal, "x"),
        lambda: store.revoke_api_key(principal, own_key),
    ):
        with pytest.raises(Forbidden):
            call()
    # They list their own keys only.
    assert [k["id"] for k in store.list_api_keys(principal)["api_keys"]] == [own_key]
    assert ApiKey.objects.count() == 1 and ApiKey.objects.get().revoked_at is None


def _user(cast, who):
    return {"member": cast.member, "viewer": cast.viewer}.get(who, cast.owner)


@pytest.mark.parametrize(
    "arguments",
    [
        {"name": ""},
        {"name": "x" * 101},
        {"name": "ok", "project": "lab"},
        {"name": "ok", "expires_at": "2020-01-01T00:00:00Z"},
        {"name": "ok", "expires_at": "tomorrow"},
        {"name": "ok", "read_only": "yes"},
    ],
)
def test_bad_key_requests_are_refused(cast, arguments):
    with pytest.raises((InvalidArgument, NotFound)):
        store.create_api_key(cast.principal(cast.owner), **arguments)
    assert not ApiKey.objects.exists()


def test_the_plan_caps_keys(cast):
    cast.plan.max_api_keys = 1
    cast.plan.save()
    store.create_api_key(cast.principal(cast.owner), "first")
    with pytest.raises(PlanLimit):
        store.create_api_key(cast.principal(cast.owner), "second")
