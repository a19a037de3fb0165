"""/api/v1 knowledge bound to code: paths on notes, list/context/search by path, code-changes and
confirm."""

from __future__ import annotations

from memory.models import Note
from tests.mcp_gateway.state import save

COMMIT = "0a1b2c3d4e5f"


def test_paths_round_trip_through_create_update_and_read(api):
    created = api.post(
        "/projects/payments/notes",
        {"title": "Invoices", "body": "Totals round half-even.", "paths": ["./billing/**", "billing/**"]},
    )
    assert created.status == 201, created
    note = created.json["note"]
    assert note["paths"] == ["billing/**"]
    updated = api.patch(f"/notes/{note['id']}", {"paths": ["billing/*.py"]})
    assert updated.status == 200 and updated.json["note"]["paths"] == ["billing/*.py"]
    assert api.get(f"/notes/{note['id']}").json["note"]["paths"] == ["billing/*.py"]
    refused = api.patch(f"/notes/{note['id']}", {"paths": ["../secrets"]})
    assert refused.status == 400 and refused.error["code"] == "invalid_argument"
    remembered = api.post(
        "/projects/payments/remember", {"content": "Refunds go through the ledger.", "paths": ["ledger/**"]}
    )
    assert remembered.status == 201 and remembered.json["note"]["paths"] == ["ledger/**"]


def test_list_filters_by_path_and_by_needs_review(api, cast):
    billing = save(cast, "Invoices", "Totals round half-even.", paths=["billing/**"])
    views = save(cast, "Views", "Views check scopes.", paths=["api/views/*.py"])
    save(cast, "Deploys", "Deploys run on Tuesdays.")
    listed = api.call("GET", "/projects/payments/notes", query={"path": "billing/tax/eu.py"})
    assert [n["id"] for n in listed.json["notes"]] == [billing]
    listed = api.call("GET", "/projects/payments/notes", query={"path": "api/views/notes.py"})
    assert [n["id"] for n in listed.json["notes"]] == [views]
    nested = api.call("GET", "/projects/payments/notes", query={"path": "api/views/sub/notes.py"})
    assert nested.json["notes"] == []
    api.post("/projects/payments/code-changes", {"commit": COMMIT, "paths": ["billing/a.py"]})
    flagged = api.get("/projects/payments/notes", needs_review="true").json["notes"]
    assert [n["id"] for n in flagged] == [billing]
    assert flagged[0]["needs_review"]["commit"] == COMMIT


def test_code_change_flags_context_warns_and_confirm_clears(api, cast):
    billing = save(cast, "Invoices", "Totals round half-even.", paths=["billing/**"])
    answer = api.post(
        "/projects/payments/code-changes", {"commit": COMMIT, "paths": ["billing/invoice.py", "README.md"]}
    )
    assert answer.status == 200, answer
    assert answer.json.pop("reported_at")
    assert answer.json == {
        "project": "payments",
        "commit": COMMIT,
        "flagged": [{"id": billing, "title": "Invoices", "paths": ["billing/invoice.py"]}],
        "flagged_count": 1,
    }
    context = api.get("/projects/payments/context").json
    assert [entry["id"] for entry in context["sections"]["conflicts"]] == [billing]
    confirmed = api.post(f"/notes/{billing}/confirm")
    assert confirmed.status == 200 and "needs_review" not in confirmed.json["note"]
    assert Note.objects.get(public_id=billing).review_flagged_at is None
    again = api.post(f"/notes/{billing}/confirm")
    assert again.status == 400 and again.error["code"] == "invalid_argument"


def test_code_change_refusals(api, cast):
    save(cast, "Invoices", "Totals round half-even.", paths=["billing/**"])
    viewer = api.as_(cast.key(cast.viewer))
    assert (
        viewer.post("/projects/payments/code-changes", {"commit": COMMIT, "paths": ["billing/a.py"]}).status
        == 403
    )
    outsider = api.as_(cast.key(cast.outsider))
    assert (
        outsider.post("/projects/payments/code-changes", {"commit": COMMIT, "paths": ["billing/a.py"]}).status
        == 404
    )
    assert api.post("/projects/payments/code-changes", {"commit": COMMIT}).status == 400
    assert api.post("/projects/payments/code-changes", {"commit": "zz", "paths": ["a.py"]}).status == 400
    assert not Note.objects.filter(review_flagged_at__isnull=False).exists()


def test_context_and_search_take_paths(api, cast):
    here = save(cast, "Rounding rule", "Totals round half-even.", paths=["billing/**"], importance=0.2)
    elsewhere = save(cast, "Rounding in the UI", "Totals round half-even on screen.", paths=["web/**"])
    context = api.get(
        "/projects/payments/context", query="rounding totals", paths=["billing/invoice.py"]
    ).json
    relevant = [entry["id"] for entry in context["sections"]["relevant"]]
    assert relevant[0] == here and elsewhere in relevant
    found = api.get(
        "/search", query="totals round half-even", project="payments", paths=["billing/x.py"]
    ).json
    assert found["results"][0]["id"] == here
