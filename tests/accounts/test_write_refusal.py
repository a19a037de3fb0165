"""A refused write says why, for the credential and role in use, and only that."""

from __future__ import annotations

from dataclasses import replace

from accounts.errors import OAUTH_READ_ONLY_MESSAGE, READ_ONLY_MESSAGE, VIEWER_MESSAGE
from accounts.principal import AuthMethod


def test_each_kind_of_read_only_caller_gets_its_own_advice(cast):
    viewer = cast.principal(cast.viewer)
    assert viewer.write_refusal().message == VIEWER_MESSAGE
    assert replace(viewer, auth_method=AuthMethod.API_KEY).write_refusal().message == VIEWER_MESSAGE
    key = replace(cast.principal(cast.member), read_only=True, auth_method=AuthMethod.API_KEY)
    assert key.write_refusal().message == READ_ONLY_MESSAGE and "role" not in READ_ONLY_MESSAGE
    token = replace(key, auth_method=AuthMethod.OAUTH)
    assert token.write_refusal().message == OAUTH_READ_ONLY_MESSAGE
    assert replace(viewer, auth_method=AuthMethod.OAUTH).write_refusal().code == "insufficient_scope"
    assert "key" not in VIEWER_MESSAGE


def test_a_viewer_sees_the_role_advice_on_a_form_that_writes(client, cast):
    client.force_login(cast.viewer)
    html = client.post("/projects/payments/bulk/", {}).content.decode()
    assert "viewers read memory and cannot change it" in html
