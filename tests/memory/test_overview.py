"""store.team_overview: the dashboard's numbers, scoped to what the caller sees, in a fixed few queries."""

from __future__ import annotations

from datetime import timedelta

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.principal import Principal
from memory import registry, store
from memory.models import Note, Project
from memory.transfer.exporting import export_document
from tests.mcp_gateway.state import save


def _mcp(cast, user) -> Principal:
    return cast.principal(user).with_client("claude-code")


def test_it_is_a_read(cast):
    assert registry.STORE_FUNCTIONS["team_overview"] == "read"


def test_counts_by_type_and_status_per_project(cast):
    save(cast, "Use Postgres", "We use Postgres.", type="decision")
    save(cast, "Port", "8080", type="fact")
    save(cast, "Old port", "8000", type="fact", status="historical")
    save(cast, "Site", "Static", project="website", type="decision", status="disputed")
    gone = save(cast, "Gone", "deleted", type="fact")
    store.delete_note(cast.principal(cast.member), gone)
    save(cast, "Mia's own", "private", visibility="private", type="task")

    overview = store.team_overview(cast.principal(cast.owner))
    rows = {row["slug"]: row for row in overview["projects"]}
    assert set(rows) == {"payments", "website"}
    assert rows["payments"]["notes"] == 3  # deleted and Mia's private note are not counted for Olivia
    assert rows["payments"]["by_type"] == {"fact": 2, "decision": 1}
    assert rows["payments"]["by_status"] == {"current": 2, "historical": 1}
    assert rows["website"]["conflicts"] == {"disputed": 1, "contradictions": 0}
    assert overview["conflicts"]["disputed"] == 1
    # Mia sees her own private note.
    mine = {row["slug"]: row for row in store.team_overview(cast.principal(cast.member))["projects"]}
    assert mine["payments"]["by_type"]["task"] == 1


def test_contradicting_links_between_live_notes_are_open_conflicts(cast):
    a = save(cast, "JWT", "We use JWTs.")
    b = save(cast, "Opaque", "We use opaque tokens.")
    c = save(cast, "Other", "Something else.")
    store.relate_notes(cast.principal(cast.member), a, b, "contradicts")
    store.relate_notes(cast.principal(cast.member), a, c, "relates_to")
    overview = store.team_overview(cast.principal(cast.viewer))
    assert overview["conflicts"] == {"disputed": 0, "contradictions": 1, "total": 1}
    store.delete_note(cast.principal(cast.member), b)
    assert store.team_overview(cast.principal(cast.viewer))["conflicts"]["total"] == 0


def test_latest_changes_name_who_and_which_client(cast):
    first = save(cast, "First", "one")
    save(cast, "Second", "two")
    store.update_note(_mcp(cast, cast.owner), first, body="one, edited by an agent")
    changes = store.team_overview(cast.principal(cast.viewer))["latest_changes"]
    assert [c["title"] for c in changes[:2]] == ["First", "Second"]
    assert changes[0] | {"updated_at": None} == changes[0] | {
        "change": "updated",
        "by": "Olivia Owner",
        "client": "claude-code",
        "version": 2,
        "project": "payments",
        "updated_at": None,
    }
    assert (changes[1]["change"], changes[1]["by"], changes[1]["client"]) == (
        "created",
        "Mia Member",
        "pytest",
    )


def test_today_counts_what_agents_created_since_midnight(cast):
    agent = _mcp(cast, cast.member)
    store.create_note(agent, "payments", "Agent note", "from an agent")
    store.create_note(agent, "website", "Agent note 2", "from an agent")
    store.create_note(cast.principal(cast.member).with_client("cursor"), "payments", "Cursor", "cursor")
    store.create_note(cast.principal(cast.member).with_client("web"), "payments", "By hand", "web form")
    old = store.create_note(agent, "payments", "Yesterday", "old")["note"]["id"]
    Note.objects.filter(public_id=old).update(created_at=timezone.now() - timedelta(days=2))

    # Memory brought in today is not agents' writing: rules files, and a project imported from an export.
    store.import_memory(agent, "payments", {"AGENTS.md": "- Never log card numbers anywhere."})
    document = export_document(cast.principal(cast.owner), cast.payments)
    store.import_project(cast.principal(cast.owner), document, slug="payments-copy")

    today = store.team_overview(cast.principal(cast.owner))["today"]
    assert today["notes"] == 3
    assert today["by_client"] == [{"client": "claude-code", "notes": 2}, {"client": "cursor", "notes": 1}]
    assert {n["title"] for n in today["latest"]} == {"Agent note", "Agent note 2", "Cursor"}


def test_nothing_of_another_team(cast):
    save(cast, "Acme fact", "acme only")
    overview = store.team_overview(cast.principal(cast.outsider))
    assert [row["slug"] for row in overview["projects"]] == ["lab"]
    assert overview["latest_changes"] == [] and overview["today"]["notes"] == 0


def test_a_project_scoped_credential_sees_its_project_only(cast):
    save(cast, "Site", "static", project="website")
    overview = store.team_overview(cast.principal(cast.member, project=cast.website))
    assert [row["slug"] for row in overview["projects"]] == ["website"]


def test_the_number_of_queries_does_not_grow_with_projects(cast):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            store.team_overview(cast.principal(cast.owner))
        return len(captured)

    save(cast, "One", "one")
    before = queries()
    for n in range(5):
        Project.objects.create(team=cast.acme, slug=f"extra-{n}", name=f"Extra {n}")
        save(cast, f"Note {n}", "text", project=f"extra-{n}")
    assert queries() == before
