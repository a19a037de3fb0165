"""Ids and tokens in page paths match their own shapes only: a NUL, a percent sign or an overlong
segment is a 404 before any query is made with it, never a 500."""

from __future__ import annotations

import pytest

from tests.mcp_gateway.state import save

MALFORMED = ["%00", "n_abc%00def", "%25", "a%20b", "x" * 2000, "%C3%A9"]


@pytest.mark.parametrize("segment", MALFORMED)
@pytest.mark.parametrize(
    ("method", "template"),
    [
        ("get", "/transfers/{}/"),
        ("get", "/projects/payments/notes/{}/"),
        ("get", "/projects/payments/notes/{}/revisions/"),
        ("post", "/keys/{}/revoke/"),
        ("post", "/teams/invitations/{}/revoke/"),
        ("get", "/teams/join/{}/"),
        ("get", "/verify-email/{}/"),
        ("get", "/password/reset/{}/token/"),
        ("get", "/exports/{}"),
        ("post", "/apps/{}/revoke/"),
    ],
)
def test_a_malformed_id_is_a_404(as_user, cast, method, template, segment):
    client = as_user(cast.owner, cast.acme)
    response = getattr(client, method)(template.format(segment))
    assert response.status_code == 404


def test_well_formed_ids_still_reach_their_pages(as_user, cast):
    client = as_user(cast.owner, cast.acme)
    note_id = save(cast, "Ledger", "Refunds go through the ledger.")
    assert client.get(f"/projects/payments/notes/{note_id}/").status_code == 200
    assert client.get("/transfers/tj_AAAAAAAAAAAAAAAA/").status_code == 404  # the shape, but no such job
