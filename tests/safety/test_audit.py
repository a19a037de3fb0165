"""Every write and every credential change leaves an audit row (who, team, project, action, object,
client, time) without content; owners and admins read it through the store, staff in the admin."""

from __future__ import annotations

import pytest

from accounts import actions
from accounts.errors import Forbidden
from accounts.models import AuditEvent, Membership
from billing import actions as billing_actions
from billing.models import Plan
from memory import store
from tests.mcp_gateway.state import save

WRITES = [
    ("remember", lambda ids: {"project": "payments", "content": "Ledger rows are immutable"}, "note.created"),
    ("checkpoint", lambda ids: {"project": "payments", "summary": "Wrapped up"}, "note.created"),
    ("save_note", lambda ids: {"project": "payments", "title": "T", "body": "B"}, "note.created"),
    ("save_note", lambda ids: {"id": ids[0], "body": "changed"}, "note.updated"),
    ("patch_note", lambda ids: {"id": ids[0], "op": "append", "text": "more"}, "note.patched"),
    ("relate_notes", lambda ids: {"from_id": ids[0], "to_id": ids[1], "kind": "depends_on"}, "link.created"),
    ("delete_note", lambda ids: {"id": ids[1]}, "note.deleted"),
    ("create_project", lambda ids: {"name": "Audited"}, "project.created"),
    ("rename_project", lambda ids: {"project": "website", "name": "Site"}, "project.renamed"),
    ("rename_tag", lambda ids: {"project": "payments", "old": "a", "new": "b"}, "tag.renamed"),
]


@pytest.mark.parametrize(("tool", "arguments", "action"), WRITES, ids=[f"{w[0]}-{w[2]}" for w in WRITES])
def test_each_write_tool_is_audited(mcp, cast, tool, arguments, action):
    ids = [save(cast, "First", "first body", tags=["a"]), save(cast, "Second", "second body")]
    AuditEvent.objects.all().delete()
    mcp.ok(cast.key(cast.member), tool, arguments(ids))
    event = AuditEvent.objects.filter(action=action).latest("pk")
    assert (event.actor_id, event.team_id) == (cast.member.pk, cast.acme.pk)
    assert event.client and event.created_at and event.object_id
    assert "first body" not in repr(event.detail) and "changed" not in repr(event.detail)


def test_credential_and_membership_changes_are_audited(cast):
    key, _ = actions.issue_api_key(cast.acme, cast.member, actor=cast.principal(cast.owner))
    actions.revoke_api_key(key, actor=cast.principal(cast.owner))
    actions.change_role(
        Membership.objects.get(team=cast.acme, user=cast.member), "admin", actor=cast.principal(cast.owner)
    )
    billing_actions.change_plan(cast.acme, Plan.objects.get(code="pro"), actor=cast.principal(cast.owner))
    recorded = set(AuditEvent.objects.filter(team=cast.acme).values_list("action", flat=True))
    assert {"api_key.created", "api_key.revoked", "member.role_changed", "team.plan_changed"} <= recorded
    plan_event = AuditEvent.objects.filter(action="team.plan_changed").latest("pk")  # the cast set the first
    assert plan_event.detail == {"old": "developer", "new": "pro"} and plan_event.actor_id == cast.owner.pk


def test_owners_and_admins_read_their_teams_log(cast):
    save(cast, "T", "B")
    store.remember(cast.principal(cast.outsider), "lab", "Globex only")
    log = store.list_audit_events(cast.principal(cast.owner))
    assert log["events"] and all(e["action"] for e in log["events"])
    assert "Globex only" not in repr(log) and all(e["project"] != "lab" for e in log["events"])
    page = store.list_audit_events(cast.principal(cast.owner), limit=1)
    older = store.list_audit_events(cast.principal(cast.owner), before=page["next_before"])
    newest_two = store.list_audit_events(cast.principal(cast.owner), limit=2)["events"]
    assert [page["events"][0]["id"], older["events"][0]["id"]] == [e["id"] for e in newest_two]
    assert all(e["id"].startswith("ev_") for e in newest_two)  # opaque, never the primary key
    for who in (cast.member, cast.viewer):
        with pytest.raises(Forbidden):
            store.list_audit_events(cast.principal(who))


def test_staff_read_the_log_in_the_admin_but_cannot_change_it(client, cast, django_user_model):
    staff = django_user_model.objects.create_superuser("staff@knownbase.test", "a long staff password")
    client.force_login(staff)
    save(cast, "T", "B")
    event = AuditEvent.objects.latest("pk")
    assert client.get("/admin/accounts/auditevent/").status_code == 200
    assert client.get(f"/admin/accounts/auditevent/{event.pk}/change/").status_code == 200
    assert (
        client.post(f"/admin/accounts/auditevent/{event.pk}/change/", {"action": "forged"}).status_code == 403
    )
    assert client.post(f"/admin/accounts/auditevent/{event.pk}/delete/", {"post": "yes"}).status_code == 403
    assert client.get("/admin/accounts/auditevent/add/").status_code == 403
    assert AuditEvent.objects.get(pk=event.pk).action == event.action
