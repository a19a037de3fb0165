"""/api/v1 links: create, list both ways, delete."""

from __future__ import annotations

from memory.models import NoteLink
from tests.mcp_gateway.state import db_state, save


def test_create_list_both_ways_and_delete(api, cast):
    a, b = save(cast, "Ledger", "Refunds go through the ledger."), save(cast, "Cents", "Amounts in cents.")
    created = api.post(f"/notes/{a}/links", {"to_id": b, "kind": "depends_on"})
    assert created.status == 201 and created.json == {
        "status": "created",
        "link": {"from_id": a, "to_id": b, "kind": "depends_on"},
    }
    assert api.post(f"/notes/{a}/links", {"to_id": b, "kind": "depends_on"}).status == 200
    outbound = api.get(f"/notes/{a}/links").json
    inbound = api.get(f"/notes/{b}/links").json
    assert [(x["to_id"], x["kind"], x["title"]) for x in outbound["outbound"]] == [(b, "depends_on", "Cents")]
    assert outbound["inbound"] == [] and [x["from_id"] for x in inbound["inbound"]] == [a]
    removed = api.delete(f"/notes/{a}/links/depends_on/{b}")
    assert removed.status == 200 and removed.json["status"] == "removed"
    assert api.delete(f"/notes/{a}/links/depends_on/{b}").json["status"] == "absent"
    assert not NoteLink.objects.exists()


def test_bad_links_are_refused_and_change_nothing(api, cast):
    a = save(cast, "Ledger", "Refunds go through the ledger.")
    before = db_state()
    assert api.post(f"/notes/{a}/links", {"to_id": a, "kind": "relates_to"}).status == 400
    assert api.post(f"/notes/{a}/links", {"to_id": a, "kind": "likes"}).status == 400
    assert api.delete(f"/notes/{a}/links/likes/{a}").status == 400
    assert api.post(f"/notes/{a}/links", {"to_id": "n_DoesNotExist0000", "kind": "relates_to"}).status == 404
    assert db_state() == before
