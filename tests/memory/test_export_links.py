"""Export download links: sealed (nothing readable, nothing alterable, one purpose), short-lived, and
bound to the credential that asked, which must still be live when the link is used."""

from __future__ import annotations

import base64
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.core import signing

from accounts.errors import Forbidden, InvalidArgument, NotFound
from accounts.models import ApiKey, Membership
from accounts.principal import (
    Principal,
    principal_for_api_key,
    principal_for_oauth_token,
    principal_for_session,
)
from memory import sealing, store
from memory.transfer.exporting import (
    EXPORT_TOKEN_PURPOSE,
    EXPORT_URL_TTL,
    ExportGrant,
    read_export_token,
    signed_export_url,
)
from tests.accounts.oauth_tokens import issue


def path_of(url: str) -> str:
    return urlsplit(url).path


def token_of(url: str) -> str:
    return url.rsplit("/", 1)[1]


def keyed(cast, user, **scope) -> Principal:
    """The principal of a fresh API key of `user`: export links are bound to a live credential."""
    principal = principal_for_api_key(cast.key(user, **scope))
    assert principal is not None
    return principal


def test_signed_url_and_token(cast):
    before = datetime.now(UTC)
    member = keyed(cast, cast.member)
    url, expires_at = signed_export_url(member, cast.payments, "markdown")
    assert url.startswith(f"{settings.SITE_URL}/exports/")
    assert before + EXPORT_URL_TTL <= expires_at <= datetime.now(UTC) + EXPORT_URL_TTL
    assert read_export_token(token_of(url)) == ExportGrant(
        project=cast.payments.public_id, credential_id=member.credential_id, fmt="markdown"
    )
    with pytest.raises(InvalidArgument):
        signed_export_url(member, cast.payments, "csv")
    with pytest.raises(NotFound):
        signed_export_url(keyed(cast, cast.outsider), cast.payments, "json")
    # A caller with no credential to bind the link to gets none.
    with pytest.raises(Forbidden):
        signed_export_url(replace(member, credential_id=""), cast.payments, "json")


def test_a_token_carries_no_readable_id(cast):
    member = keyed(cast, cast.member)
    token = token_of(signed_export_url(member, cast.payments, "json")[0])
    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    lookup = member.credential_id.split("_", 2)[-1]
    for readable in (token.encode(), raw):
        for value in (cast.payments.public_id, lookup, "payments", "json", '"p"'):
            assert value.encode() not in readable, value
    # Sealed with a fresh nonce: the same grant never gives the same token twice.
    assert token_of(signed_export_url(member, cast.payments, "json")[0]) != token


def test_download_is_get_only(cast, client):
    url, _ = signed_export_url(keyed(cast, cast.owner), cast.payments, "json")
    assert client.post(path_of(url)).status_code == 405


def test_tampered_or_garbage_token_is_404(cast, client):
    url, _ = signed_export_url(keyed(cast, cast.owner), cast.payments, "json")
    token = token_of(url)
    for position in (0, 5, len(token) // 2, len(token) - 1):
        flipped = "A" if token[position] != "A" else "B"
        assert client.get(f"/exports/{token[:position]}{flipped}{token[position + 1 :]}").status_code == 404
    for bad in (token + "x", token[:-4], "nonsense", "a:b:c", ""):
        assert client.get(f"/exports/{bad}").status_code == 404


def test_a_link_forged_with_the_signing_key_is_404(cast, client):
    # The attack on the old links: anyone holding SECRET_KEY (once a public development constant)
    # signed small integer ids. Signed payloads of either shape, under any salt, grant nothing.
    owner = keyed(cast, cast.owner)
    for salt in ("knownbase.export.v1", "knownbase.export-download"):
        for payload in (
            {"t": cast.acme.pk, "p": cast.payments.pk, "u": cast.owner.pk, "f": "json"},
            {"use": "export-download", "p": cast.payments.public_id, "c": owner.credential_id, "f": "json"},
        ):
            forged = signing.TimestampSigner(salt=salt).sign_object(payload)
            assert client.get(f"/exports/{forged}").status_code == 404


def test_a_token_sealed_for_another_purpose_is_404(cast, client):
    owner = keyed(cast, cast.owner)
    payload = {"use": "export-download", "p": cast.payments.public_id, "c": owner.credential_id, "f": "json"}
    assert client.get(f"/exports/{sealing.seal(payload, EXPORT_TOKEN_PURPOSE)}").status_code == 200
    for purpose in ("knownbase.feed-cursor", "something.else"):
        assert client.get(f"/exports/{sealing.seal(payload, purpose)}").status_code == 404
    # The purpose field inside must say export too.
    other_use = sealing.seal({**payload, "use": "cursor"}, EXPORT_TOKEN_PURPOSE)
    assert client.get(f"/exports/{other_use}").status_code == 404
    # A feed cursor is no export link.
    cursor = store.get_changes_since(owner, "payments")["cursor"]
    assert client.get(f"/exports/{cursor}").status_code == 404


def test_expired_token_is_404(cast, client, monkeypatch):
    owner = keyed(cast, cast.owner)

    def signed_ago(minutes: int) -> str:
        with monkeypatch.context() as patch:
            then = time.time() - minutes * 60
            patch.setattr("memory.sealing.time.time", lambda: then)
            url, _ = signed_export_url(owner, cast.payments, "json")
        return path_of(url)

    assert client.get(signed_ago(9)).status_code == 200
    expired = signed_ago(11)
    assert client.get(expired).status_code == 404
    with pytest.raises(InvalidArgument, match="expired"):
        read_export_token(expired.rsplit("/", 1)[1])


def test_revoking_the_key_ends_the_link(cast, client):
    raw = cast.key(cast.member)
    principal = principal_for_api_key(raw)
    assert principal is not None
    url, _ = signed_export_url(principal, cast.payments, "json")
    assert client.get(path_of(url)).status_code == 200
    ApiKey.objects.get(lookup=principal.credential_id.removeprefix("api_key:kb_")).revoke()
    assert client.get(path_of(url)).status_code == 404


def test_an_expired_key_ends_the_link(cast, client):
    principal = keyed(cast, cast.member)
    url, _ = signed_export_url(principal, cast.payments, "json")
    ApiKey.objects.filter(lookup=principal.credential_id.removeprefix("api_key:kb_")).update(
        expires_at=datetime.now(UTC) - timedelta(seconds=1)
    )
    assert client.get(path_of(url)).status_code == 404


def test_a_link_has_the_scope_its_key_has_today(cast, client):
    # Narrowing a key to another project after the link was made ends the link.
    principal = keyed(cast, cast.member)
    url, _ = signed_export_url(principal, cast.payments, "json")
    ApiKey.objects.filter(lookup=principal.credential_id.removeprefix("api_key:kb_")).update(
        project_id=cast.website.pk
    )
    assert client.get(path_of(url)).status_code == 404


def test_a_web_session_link_ends_when_the_member_leaves(cast, client):
    session = principal_for_session(cast.member, cast.acme.pk)
    assert session is not None
    url, _ = signed_export_url(session, cast.payments, "markdown")
    assert client.get(path_of(url)).status_code == 200
    Membership.objects.filter(team=cast.acme, user=cast.member).delete()
    assert client.get(path_of(url)).status_code == 404


def test_an_oauth_link_ends_when_the_connection_is_revoked(cast, client):
    raw, connection = issue(cast.member, cast.acme)
    principal = principal_for_oauth_token(raw)
    assert principal is not None
    url, _ = signed_export_url(principal, cast.payments, "json")
    assert client.get(path_of(url)).status_code == 200
    connection.revoked_at = datetime.now(UTC)
    connection.save()
    assert client.get(path_of(url)).status_code == 404


def test_a_credential_that_cannot_be_checked_gets_no_download(cast, client):
    # The test cast's principals name no real credential ("test:<pk>"): nothing vouches for them later.
    url, _ = signed_export_url(cast.principal(cast.member), cast.payments, "json")
    assert client.get(path_of(url)).status_code == 404


def test_token_of_a_user_who_left_the_team_is_404(cast, client):
    url, _ = signed_export_url(keyed(cast, cast.member), cast.payments, "json")
    Membership.objects.filter(team=cast.acme, user=cast.member).delete()
    assert client.get(path_of(url)).status_code == 404


def test_token_of_a_deactivated_user_or_a_deleted_project_is_404(cast, client):
    url, _ = signed_export_url(keyed(cast, cast.member), cast.payments, "json")
    cast.member.is_active = False
    cast.member.save()
    assert client.get(path_of(url)).status_code == 404

    url, _ = signed_export_url(keyed(cast, cast.owner), cast.website, "markdown")
    cast.website.delete()
    assert client.get(path_of(url)).status_code == 404
