from __future__ import annotations

from memory.models import Project
from tests.mcp_gateway.state import db_state, save, text_matches_structured


def test_renames_and_changes_the_slug(mcp, cast):
    note_id = save(cast, "Stripe", "We use Stripe.")
    key = cast.key(cast.member)
    result = mcp.call(key, "rename_project", {"project": "payments", "name": "Billing", "slug": "billing"})
    assert not result.is_error, result.structured_content
    assert text_matches_structured(result)
    assert result.structured_content["project"] == {"slug": "billing", "name": "Billing", "summary": ""}
    cast.payments.refresh_from_db()
    assert (cast.payments.slug, cast.payments.name) == ("billing", "Billing")
    # The notes follow the project; the old slug is gone.
    assert mcp.ok(key, "get_notes", {"ids": [note_id]})["notes"][0]["project"] == "billing"
    assert mcp.error(key, "get_context", {"project": "payments"})["code"] == "not_found"


def test_name_only_keeps_the_slug(local_mcp, cast):
    project = local_mcp.ok(
        cast.key(cast.owner), "rename_project", {"project": "website", "name": "Marketing site"}
    )
    assert project["project"]["slug"] == "website"
    assert Project.objects.get(pk=cast.website.pk).name == "Marketing site"


def test_a_taken_slug_is_invalid(local_mcp, cast):
    before = db_state()
    error = local_mcp.error(
        cast.key(cast.owner), "rename_project", {"project": "payments", "slug": "website"}
    )
    assert error["code"] == "invalid_argument"
    assert "website" in error["message"]
    assert db_state() == before


def test_read_only_callers_are_forbidden(local_mcp, cast):
    before = db_state()
    for key in (cast.key(cast.viewer), cast.key(cast.member, read_only=True)):
        error = local_mcp.error(key, "rename_project", {"project": "payments", "name": "Hijacked"})
        assert error["code"] == "forbidden"
    assert db_state() == before


def test_out_of_scope_is_not_found(local_mcp, cast):
    before = db_state()
    for key in (cast.key(cast.outsider), cast.key(cast.member, project=cast.website)):
        error = local_mcp.error(
            key, "rename_project", {"project": "payments", "name": "Hijacked", "slug": "mine"}
        )
        assert error["code"] == "not_found"
    assert db_state() == before


def test_bad_input_is_invalid_argument(local_mcp, cast):
    before = db_state()
    key = cast.key(cast.owner)
    for arguments in [
        {},
        {"project": "payments"},
        {"project": "", "name": "Billing"},
        {"project": "payments", "name": ""},
        {"project": "payments", "name": "   "},
        {"project": "payments", "name": 5},
        {"project": "payments", "name": "x" * 121},
        {"project": "payments", "slug": "Not A Slug"},
        {"project": "payments", "slug": "x" * 61},
        {"project": "payments", "name": "Billing", "team": "globex"},
    ]:
        result = local_mcp.call(key, "rename_project", arguments)
        assert result.is_error, arguments
        assert result.structured_content["error"]["code"] == "invalid_argument", arguments
    assert db_state() == before
