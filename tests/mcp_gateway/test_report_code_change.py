"""report_code_change and confirm_note: notes bound to changed code are flagged, warned about in
get_context, and cleared by a confirmation or an edit. Also `paths` on remember, save_note,
checkpoint, get_context and search_notes."""

from __future__ import annotations

from accounts.models import AuditEvent
from memory.models import Note
from tests.mcp_gateway.state import db_state, save, text_matches_structured

COMMIT = "9f2c1e4b7a"


def bound_notes(cast):
    invoice = save(cast, "Invoice rounding", "Invoice totals round half-even per line.", paths=["billing/**"])
    views = save(cast, "View auth", "Every API view checks the key scope.", paths=["api/views/*.py"])
    unbound = save(cast, "Deploys", "Deploys run on Tuesdays.")
    return invoice, views, unbound


def test_a_change_flags_bound_notes_warns_in_context_and_confirm_clears(mcp, cast):
    invoice, views, unbound = bound_notes(cast)
    key = cast.key(cast.member)
    result = mcp.call(
        key,
        "report_code_change",
        {"project": "payments", "commit": COMMIT, "paths": ["billing/tax/eu.py", "api/views/sub/x.py"]},
    )
    assert not result.is_error, result.structured_content
    assert text_matches_structured(result)
    answer = result.structured_content
    assert answer["commit"] == COMMIT and answer["flagged_count"] == 1
    assert answer["flagged"] == [{"id": invoice, "title": "Invoice rounding", "paths": ["billing/tax/eu.py"]}]
    flagged = Note.objects.get(public_id=invoice)
    assert flagged.review_commit == COMMIT and flagged.version == 1 and flagged.status == "current"
    assert Note.objects.get(public_id=views).review_flagged_at is None
    assert Note.objects.get(public_id=unbound).review_flagged_at is None

    read = mcp.call(key, "get_notes", {"ids": [invoice]}).structured_content["notes"][0]
    assert read["needs_review"]["commit"] == COMMIT and read["paths"] == ["billing/**"]
    context = mcp.call(key, "get_context", {"project": "payments"}).structured_content
    warnings = context["sections"]["conflicts"]
    assert [w["id"] for w in warnings] == [invoice]
    assert COMMIT in warnings[0]["reason"]

    confirmed = mcp.call(key, "confirm_note", {"id": invoice})
    assert not confirmed.is_error, confirmed.structured_content
    assert "needs_review" not in confirmed.structured_content["note"]
    assert Note.objects.get(public_id=invoice).review_flagged_at is None
    context = mcp.call(key, "get_context", {"project": "payments"}).structured_content
    assert "conflicts" not in context["sections"]
    actions = set(AuditEvent.objects.values_list("action", flat=True))
    assert {"code.changed", "note.confirmed"} <= actions


def test_an_edit_clears_the_flag(local_mcp, cast):
    invoice, _, _ = bound_notes(cast)
    key = cast.key(cast.member)
    local_mcp.call(
        key, "report_code_change", {"project": "payments", "commit": COMMIT, "paths": ["billing/a.py"]}
    )
    assert Note.objects.get(public_id=invoice).review_flagged_at is not None
    result = local_mcp.call(key, "save_note", {"id": invoice, "body": "Invoice totals round half-up now."})
    assert not result.is_error, result.structured_content
    assert "needs_review" not in result.structured_content["note"]
    assert Note.objects.get(public_id=invoice).review_flagged_at is None


def test_only_current_notes_are_flagged_and_confirming_an_unflagged_note_is_refused(local_mcp, cast):
    invoice, _, _ = bound_notes(cast)
    old = save(cast, "Old invoices", "Invoices used to round up.", paths=["billing/**"], status="historical")
    key = cast.key(cast.member)
    answer = local_mcp.call(
        key, "report_code_change", {"project": "payments", "commit": COMMIT, "paths": ["billing/a.py"]}
    ).structured_content
    assert [n["id"] for n in answer["flagged"]] == [invoice]
    assert Note.objects.get(public_id=old).review_flagged_at is None
    assert local_mcp.error(key, "confirm_note", {"id": old})["code"] == "invalid_argument"


def test_read_only_and_out_of_scope_callers_change_nothing(local_mcp, cast):
    bound_notes(cast)
    before = db_state()
    arguments = {"project": "payments", "commit": COMMIT, "paths": ["billing/a.py"]}
    for key in (cast.key(cast.viewer), cast.key(cast.member, read_only=True)):
        assert local_mcp.error(key, "report_code_change", arguments)["code"] == "forbidden"
    for key in (cast.key(cast.outsider), cast.key(cast.member, project=cast.website)):
        assert local_mcp.error(key, "report_code_change", arguments)["code"] == "not_found"
    assert db_state() == before
    assert not Note.objects.filter(review_flagged_at__isnull=False).exists()


def test_bad_input_is_invalid_argument(local_mcp, cast):
    bound_notes(cast)
    key = cast.key(cast.member)
    for arguments in [
        {"project": "payments", "commit": COMMIT, "paths": []},
        {"project": "payments", "commit": "not a commit!", "paths": ["billing/a.py"]},
        {"project": "payments", "commit": COMMIT, "paths": ["../etc/passwd"]},
        {"project": "payments", "commit": COMMIT},
    ]:
        assert local_mcp.error(key, "report_code_change", arguments)["code"] == "invalid_argument", arguments
    assert not Note.objects.filter(review_flagged_at__isnull=False).exists()


def test_the_tools_are_in_the_full_set_only(mcp, mcp_url, cast):
    key = cast.key(cast.member)
    core = {t.name for t in mcp.list_tools(key, url=mcp_url + "?toolset=core")}
    full = {t.name for t in mcp.list_tools(key)}
    assert {"report_code_change", "confirm_note"} <= full
    assert not {"report_code_change", "confirm_note"} & core


def test_paths_are_accepted_by_remember_checkpoint_and_save_note(local_mcp, cast):
    key = cast.key(cast.member)
    remembered = local_mcp.call(
        key,
        "remember",
        {"project": "payments", "content": "Tax rates load from the EU table.", "paths": ["/billing/tax/**"]},
    ).structured_content
    assert Note.objects.get(public_id=remembered["note"]["id"]).paths == ["billing/tax/**"]
    assert remembered["note"]["paths"] == ["billing/tax/**"]
    checkpointed = local_mcp.call(
        key,
        "checkpoint",
        {
            "project": "payments",
            "summary": "Reworked tax.",
            "decisions": ["Tax is per line."],
            "paths": ["billing/**"],
        },
    ).structured_content
    assert Note.objects.get(public_id=checkpointed["handoff"]["id"]).paths == ["billing/**"]
    assert Note.objects.get(public_id=checkpointed["items"][0]["id"]).paths == ["billing/**"]
    saved = local_mcp.call(
        key, "save_note", {"project": "payments", "title": "T", "body": "B.", "paths": ["web/*.html"]}
    ).structured_content
    note_id = saved["note"]["id"]
    assert saved["note"]["paths"] == ["web/*.html"]
    updated = local_mcp.call(key, "save_note", {"id": note_id, "paths": []}).structured_content
    assert "paths" not in updated["note"] and Note.objects.get(public_id=note_id).paths == []
    error = local_mcp.error(key, "save_note", {"id": note_id, "paths": ["a/../../b"]})
    assert error["code"] == "invalid_argument"


def test_paths_are_screened_like_any_text(local_mcp, cast):
    key = cast.key(cast.member)
    secret = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"
    error = local_mcp.error(
        key,
        "remember",
        {"project": "payments", "content": "Keys live in config.", "paths": [f"cfg/{secret}"]},
    )
    assert error["code"] == "screened", error
    assert not Note.objects.filter(body="Keys live in config.").exists()


def test_context_and_search_rank_notes_bound_to_the_working_files(local_mcp, cast):
    key = cast.key(cast.member)
    here = save(cast, "Rounding rule", "Totals round half-even.", paths=["billing/**"], importance=0.2)
    elsewhere = save(cast, "Rounding in the UI", "Totals round half-even on screen.", paths=["web/**"])
    unbound = save(cast, "Rounding everywhere", "Totals round half-even always.", importance=0.2)
    context = local_mcp.call(
        key,
        "get_context",
        {"project": "payments", "query": "rounding totals", "paths": ["billing/invoice.py"]},
    ).structured_content
    relevant = [entry["id"] for entry in context["sections"]["relevant"]]
    assert relevant[0] == here
    assert relevant.index(unbound) < relevant.index(elsewhere)
    found = local_mcp.call(
        key,
        "search_notes",
        {"query": "totals round half-even", "project": "payments", "paths": ["billing/invoice.py"]},
    ).structured_content["results"]
    order = [row["id"] for row in found]
    assert order[0] == here and order.index(unbound) < order.index(elsewhere)
    # A bound note joins `relevant` on its paths alone, with no query.
    plain = local_mcp.call(
        key, "get_context", {"project": "payments", "paths": ["billing/invoice.py"]}
    ).structured_content
    assert [entry["id"] for entry in plain["sections"]["relevant"]] == [here]
