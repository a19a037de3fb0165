from __future__ import annotations

import copy
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from accounts.errors import Forbidden, InvalidArgument, NotFound, PlanLimit
from memory import usage
from memory.models import Note, NoteLink, NoteRevision, Project
from memory.notes.lifecycle import content_hash
from memory.transfer.exporting import (
    EXPORT_FORMAT,
    EXPORT_VERSION,
    export_counts,
    export_document,
    export_markdown,
    signed_export_url,
)
from memory.transfer.importing import import_document
from tests.memory.test_export_links import keyed, path_of

T0 = datetime(2025, 3, 4, 5, 6, 7, 123456, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def make_note(cast, project=None, **fields) -> Note:
    project = project or cast.payments
    fields.setdefault("created_at", at(len(fields.get("title", ""))))
    fields.setdefault("updated_at", fields["created_at"])
    return Note.objects.create(
        team=project.team, project=project, content_hash=content_hash(fields.get("body", "")), **fields
    )


@pytest.fixture
def rich(cast) -> dict[str, Note]:
    """The payments project with every kind of state an export has to carry."""
    cast.payments.summary = "Card payments for the shop."
    cast.payments.agent_instructions = "Never log card numbers."
    cast.payments.default_context_budget = 1500
    cast.payments.save()
    rest = make_note(
        cast,
        type="decision",
        status="superseded",
        title="Use REST for the gateway",
        body="We call the gateway over REST.",
        tags=["api", "gateway"],
        importance=0.7,
        author=cast.owner,
        version=3,
        source="claude-code",
        access_count=4,
        last_accessed_at=at(500),
        created_at=at(1),
        updated_at=at(50),
    )
    grpc = make_note(
        cast,
        type="decision",
        title="Use gRPC for the gateway",
        body="gRPC gives us streaming.",
        tags=["api"],
        importance=0.9,
        author=cast.member,
        created_at=at(2),
        updated_at=datetime(2025, 3, 5, tzinfo=UTC),  # no microseconds
    )
    rest.superseded_by = grpc
    rest.save()
    constraint = make_note(
        cast,
        type="constraint",
        title="PCI: no card numbers in logs",
        body="Mask PANs everywhere.",
        importance=1.0,
        author=cast.owner,
        created_at=at(3),
    )
    fact = make_note(
        cast,
        type="fact",
        status="disputed",
        title="Stripe retries webhooks 3 days",
        author=None,
        created_at=at(4),
    )
    failed = make_note(
        cast,
        type="failed_approach",
        status="historical",
        title="Polling the gateway",
        body="Rate limited within minutes.",
        author=cast.member,
        created_at=at(5),
    )
    task = make_note(
        cast,
        type="task",
        status="pending",
        title="Rotate the webhook secret",
        author=cast.member,
        created_at=at(6),
    )
    deleted = make_note(
        cast,
        type="note",
        title="Scratch: ignore me",
        body="temporary",
        author=cast.member,
        deleted_at=at(900),
        delete_reason="wrong project",
        created_at=at(7),
    )
    private = make_note(
        cast,
        type="preference",
        visibility="private",
        title="Olivia prefers terse answers",
        author=cast.owner,
        created_at=at(8),
    )
    # A team note superseded by a private note: only its author may see the link.
    draft = make_note(cast, type="status", title="Launch is on track", author=cast.owner, created_at=at(9))
    draft.status = "superseded"
    draft.superseded_by = private
    draft.save()
    make_note(cast, project=cast.website, title="Website note", author=cast.owner)
    for version, title, editor, client in [
        (1, "Use REST", cast.owner, "cursor"),
        (2, "Use REST for now", None, "claude-code"),
    ]:
        NoteRevision.objects.create(
            note=rest,
            version=version,
            type="decision",
            status="current",
            title=title,
            body=f"v{version} body",
            tags=["api"],
            importance=0.5,
            edited_by=editor,
            client=client,
            created_at=at(10 + version),
        )
    NoteLink.objects.create(from_note=grpc, to_note=rest, kind="derived_from", created_at=at(20))
    NoteLink.objects.create(from_note=constraint, to_note=grpc, kind="relates_to", created_at=at(21))
    NoteLink.objects.create(from_note=failed, to_note=rest, kind="contradicts", created_at=at(22))
    NoteLink.objects.create(from_note=private, to_note=task, kind="depends_on", created_at=at(23))
    return {
        "rest": rest,
        "grpc": grpc,
        "constraint": constraint,
        "fact": fact,
        "failed": failed,
        "task": task,
        "deleted": deleted,
        "private": private,
        "draft": draft,
    }


def remap(document: dict[str, Any], id_map: dict[str, str], slug: str, name: str) -> dict[str, Any]:
    expected = copy.deepcopy(document)
    expected["project"].update(slug=slug, name=name)
    for note in expected["notes"]:
        note["id"] = id_map[note["id"]]
        if note["superseded_by"] is not None:
            note["superseded_by"] = id_map[note["superseded_by"]]
    for link in expected["links"]:
        link["from"], link["to"] = id_map[link["from"]], id_map[link["to"]]
    return expected


def table_counts() -> tuple[int, int, int, int]:
    return (
        Project.objects.count(),
        Note.objects.count(),
        NoteRevision.objects.count(),
        NoteLink.objects.count(),
    )


# ---------------------------------------------------------------------------------------------- export


def test_export_document_is_complete(cast, rich):
    document = export_document(cast.principal(cast.owner), cast.payments)
    assert document["format"] == EXPORT_FORMAT
    assert document["version"] == EXPORT_VERSION
    assert document["project"] == {
        "slug": "payments",
        "name": "Payments API",
        "summary": "Card payments for the shop.",
        "agent_instructions": "Never log card numbers.",
        "default_context_budget": 1500,
    }
    ids = [note["id"] for note in document["notes"]]
    ordered = sorted(rich.values(), key=lambda n: (n.created_at, n.pk))
    assert ids == [n.public_id for n in ordered]  # the website note is not here

    rest = document["notes"][0]
    assert rest == {
        "id": rich["rest"].public_id,
        "type": "decision",
        "status": "superseded",
        "title": "Use REST for the gateway",
        "body": "We call the gateway over REST.",
        "tags": ["api", "gateway"],
        "paths": [],
        "importance": 0.7,
        "visibility": "team",
        "source": "claude-code",
        "version": 3,
        "author": "olivia@acme.test",
        "created_at": "2025-03-04T05:06:08.123456Z",
        "updated_at": "2025-03-04T05:06:57.123456Z",
        "deleted_at": None,
        "delete_reason": "",
        "access_count": 4,
        "last_accessed_at": "2025-03-04T05:14:27.123456Z",
        "superseded_by": rich["grpc"].public_id,
        "revisions": [
            {
                "version": 1,
                "type": "decision",
                "status": "current",
                "title": "Use REST",
                "body": "v1 body",
                "tags": ["api"],
                "importance": 0.5,
                "edited_by": "olivia@acme.test",
                "client": "cursor",
                "created_at": "2025-03-04T05:06:18.123456Z",
            },
            {
                "version": 2,
                "type": "decision",
                "status": "current",
                "title": "Use REST for now",
                "body": "v2 body",
                "tags": ["api"],
                "importance": 0.5,
                "edited_by": None,
                "client": "claude-code",
                "created_at": "2025-03-04T05:06:19.123456Z",
            },
        ],
    }
    assert document["notes"][1]["updated_at"] == "2025-03-05T00:00:00.000000Z"
    deleted = next(n for n in document["notes"] if n["id"] == rich["deleted"].public_id)
    assert deleted["deleted_at"] == "2025-03-04T05:21:07.123456Z"
    assert deleted["delete_reason"] == "wrong project"
    assert len(document["links"]) == 4
    assert document["links"][0] == {
        "from": rich["grpc"].public_id,
        "to": rich["rest"].public_id,
        "kind": "derived_from",
        "created_at": "2025-03-04T05:06:27.123456Z",
    }
    assert export_counts(document) == {"notes": 9, "revisions": 2, "links": 4}
    json.dumps(document)  # plain JSON all the way down


def test_export_leaves_out_other_users_private_notes_and_their_links(cast, rich):
    document = export_document(cast.principal(cast.member), cast.payments)
    ids = {note["id"] for note in document["notes"]}
    assert rich["private"].public_id not in ids
    assert rich["deleted"].public_id in ids
    assert all(rich["private"].public_id not in (link["from"], link["to"]) for link in document["links"])
    draft = next(n for n in document["notes"] if n["id"] == rich["draft"].public_id)
    assert draft["superseded_by"] is None  # its successor is invisible to Mia
    assert export_counts(document) == {"notes": 8, "revisions": 2, "links": 3}
    # What Mia sees still imports cleanly.
    result = import_document(cast.principal(cast.member), document, slug="mia-copy")
    assert result["imported"] == export_counts(document)


def test_export_of_a_project_outside_scope_is_not_found(cast, rich):
    with pytest.raises(NotFound):
        export_document(cast.principal(cast.outsider), cast.payments)
    with pytest.raises(NotFound):
        export_document(cast.principal(cast.owner, project=cast.website), cast.payments)


def test_markdown_has_the_project_and_live_notes_grouped_by_type(cast, rich):
    text = export_markdown(cast.principal(cast.member), cast.payments)
    assert text.startswith("# Payments API\n")
    assert "Card payments for the shop." in text
    assert "## Decisions" in text and "## Constraints" in text and "## Failed approaches" in text
    for key in ("rest", "grpc", "constraint", "fact", "failed", "task", "draft"):
        assert f"### {rich[key].title}" in text
        assert rich[key].public_id in text
    assert "status: disputed" in text
    assert "tags: api, gateway" in text
    assert "Rate limited within minutes." in text
    assert "Scratch: ignore me" not in text  # deleted
    assert "Olivia prefers terse answers" not in text  # someone else's private note
    assert text.index("## Decisions") < text.index("## Constraints") < text.index("## Failed approaches")
    assert "Olivia prefers terse answers" in export_markdown(cast.principal(cast.owner), cast.payments)


# ---------------------------------------------------------------------------------------------- import


def test_round_trip_is_lossless_except_ids_slug_and_name(cast, rich):
    owner = cast.principal(cast.owner)
    first = export_document(owner, cast.payments)

    result = import_document(owner, first, slug="payments-copy", name="Payments (copy)")

    id_map = result["id_map"]
    assert set(id_map) == {note["id"] for note in first["notes"]}
    assert not set(id_map.values()) & set(id_map)  # all new public ids
    assert len(set(id_map.values())) == len(id_map)
    assert result["project"] == {
        "slug": "payments-copy",
        "name": "Payments (copy)",
        "summary": "Card payments for the shop.",
        "notes": 8,
    }
    assert result["imported"] == {"notes": 9, "revisions": 2, "links": 4}

    copy_project = Project.objects.get(team=cast.acme, slug="payments-copy")
    second = export_document(owner, copy_project)
    expected = remap(first, id_map, "payments-copy", "Payments (copy)")
    expected["exported_at"] = second["exported_at"]
    assert second == expected

    # The original is untouched and the copy lives in its own rows.
    assert Note.objects.filter(project=cast.payments).count() == 9
    imported = Note.objects.get(public_id=id_map[rich["rest"].public_id])
    assert imported.project == copy_project and imported.team == cast.acme
    assert imported.content_hash == content_hash(rich["rest"].body)
    assert imported.superseded_by is not None
    assert imported.superseded_by.public_id == id_map[rich["grpc"].public_id]
    assert Note.objects.get(public_id=id_map[rich["private"].public_id]).author == cast.owner


def test_import_maps_unknown_authors_to_the_importer(cast, rich):
    document = export_document(cast.principal(cast.owner), cast.payments)
    result = import_document(cast.principal(cast.outsider), document)

    assert result["project"]["slug"] == "payments"  # free in globex
    project = Project.objects.get(team=cast.globex, slug="payments")
    authors = set(Note.objects.filter(project=project).values_list("author__email", flat=True))
    assert authors == {"oscar@globex.test", None}  # None: the fact had no author to begin with
    editors = set(
        NoteRevision.objects.filter(note__project=project).values_list("edited_by__email", flat=True)
    )
    assert editors == {"oscar@globex.test", None}
    # Olivia's private note now belongs to the importer, so Oscar can see it.
    again = export_document(cast.principal(cast.outsider), project)
    assert export_counts(again) == export_counts(document)


def test_import_of_an_empty_project(cast):
    document = export_document(cast.principal(cast.member), cast.website)
    result = import_document(cast.principal(cast.member), document, slug="website-2")
    assert result["imported"] == {"notes": 0, "revisions": 0, "links": 0}
    assert result["id_map"] == {}
    assert result["project"]["name"] == "Website"


def break_format(d):
    d["format"] = "other-export"


def break_version(d):
    d["version"] = 2


def break_type(d):
    d["notes"][3]["type"] = "opinion"


def drop_title(d):
    del d["notes"][0]["title"]


def unknown_link_target(d):
    d["links"][1]["to"] = "n_doesnotexist0000"


def unknown_successor(d):
    d["notes"][0]["superseded_by"] = "n_doesnotexist0000"


def bad_revision_status(d):
    d["notes"][0]["revisions"][1]["status"] = "gone"


def bad_tags(d):
    d["notes"][2]["tags"] = "api, gateway"


def bad_importance(d):
    d["notes"][2]["importance"] = 7


def bool_version(d):
    d["notes"][2]["version"] = True


def bad_time(d):
    d["notes"][4]["created_at"] = "yesterday"


def naive_time(d):
    d["links"][0]["created_at"] = "2025-03-04T05:06:07"


def unknown_field(d):
    d["notes"][1]["colour"] = "red"


def duplicate_id(d):
    d["notes"][1]["id"] = d["notes"][0]["id"]


def long_title(d):
    d["notes"][1]["title"] = "x" * 301


def nul_in_body(d):
    d["notes"][1]["body"] = "a\x00b"


def notes_not_list(d):
    d["notes"] = {}


def bad_visibility(d):
    d["notes"][5]["visibility"] = "public"


def bad_link_kind(d):
    d["links"][2]["kind"] = "blocks"


def self_link(d):
    d["links"][0]["to"] = d["links"][0]["from"]


def bad_project_slug(d):
    d["project"]["slug"] = 5


def missing_project_field(d):
    del d["project"]["summary"]


@pytest.mark.parametrize(
    ("breaker", "message"),
    [
        (break_format, "format must be 'knownbase-export'"),
        (break_version, "version must be 1"),
        (break_type, "notes[3].type must be one of decision, constraint,"),
        (drop_title, "notes[0].title is required"),
        (unknown_link_target, "links[1].to refers to unknown note id 'n_doesnotexist0000'"),
        (unknown_successor, "notes[0].superseded_by refers to unknown note id"),
        (bad_revision_status, "notes[0].revisions[1].status must be one of current,"),
        (bad_tags, "notes[2].tags must be a list"),
        (bad_importance, "notes[2].importance must be a number from 0 to 1"),
        (bool_version, "notes[2].version must be an integer"),
        (bad_time, "notes[4].created_at must be an RFC 3339 time string"),
        (naive_time, "links[0].created_at must carry a time zone"),
        (unknown_field, "notes[1] has unknown field 'colour'"),
        (duplicate_id, "notes[1].id repeats id"),
        (long_title, "notes[1].title is 301 characters; the limit is 300"),
        (nul_in_body, "notes[1].body must not contain NUL characters"),
        (notes_not_list, "notes must be a list"),
        (bad_visibility, "notes[5].visibility must be one of team, private"),
        (bad_link_kind, "links[2].kind must be one of relates_to,"),
        (self_link, "links[0] links a note to itself"),
        (bad_project_slug, "project.slug must be a string"),
        (missing_project_field, "project.summary is required"),
    ],
)
def test_bad_documents_are_refused_naming_the_path_and_nothing_is_written(cast, rich, breaker, message):
    owner = cast.principal(cast.owner)
    document = export_document(owner, cast.payments)
    breaker(document)
    before = table_counts()
    with pytest.raises(InvalidArgument) as refused:
        import_document(owner, document, slug="imported")
    assert refused.value.message.startswith(message), refused.value.message
    assert table_counts() == before


@pytest.mark.parametrize("document", [None, [], "{}", 3])
def test_a_document_that_is_not_an_object_is_refused(cast, document):
    with pytest.raises(InvalidArgument):
        import_document(cast.principal(cast.owner), document)


def test_a_taken_or_malformed_slug_is_refused(cast, rich):
    owner = cast.principal(cast.owner)
    document = export_document(owner, cast.payments)
    before = table_counts()
    with pytest.raises(InvalidArgument, match="'payments' exists already"):
        import_document(owner, document)
    with pytest.raises(InvalidArgument, match="'website' exists already"):
        import_document(owner, document, slug="website")
    with pytest.raises(InvalidArgument, match=r"^slug may hold"):
        import_document(owner, document, slug="Two Words")
    with pytest.raises(InvalidArgument, match=r"^name must not be empty"):
        import_document(owner, document, slug="fresh", name="  ")
    document["project"]["slug"] = "Not A Slug"
    with pytest.raises(InvalidArgument, match=r"^project.slug may hold"):
        import_document(owner, document)
    assert table_counts() == before


def test_project_scoped_and_read_only_principals_are_forbidden(cast, rich):
    document = export_document(cast.principal(cast.owner), cast.payments)
    before = table_counts()
    for principal in (
        cast.principal(cast.owner, project=cast.payments),
        cast.principal(cast.viewer),
        cast.principal(cast.member, read_only=True),
    ):
        with pytest.raises(Forbidden):
            import_document(principal, document, slug="imported")
    assert table_counts() == before


def test_project_cap_refuses_the_import(cast, rich):
    owner = cast.principal(cast.owner)
    document = export_document(owner, cast.payments)
    plan = cast.plan
    plan.max_projects = usage.projects_used(cast.acme.pk)
    plan.save()
    before = table_counts()
    with pytest.raises(PlanLimit) as refused:
        import_document(owner, document, slug="imported")
    assert refused.value.details["cap"] == "projects"
    assert table_counts() == before


def test_note_cap_counts_only_live_notes(cast, rich):
    owner = cast.principal(cast.owner)
    document = export_document(owner, cast.payments)
    live = sum(1 for note in document["notes"] if note["deleted_at"] is None)
    plan = cast.plan
    plan.max_notes = usage.notes_used(cast.acme.pk) + live - 1
    plan.save()
    before = table_counts()
    with pytest.raises(PlanLimit) as refused:
        import_document(owner, document, slug="imported")
    assert refused.value.details["cap"] == "notes"
    assert table_counts() == before

    plan.max_notes += 1  # exactly enough: the deleted note does not count
    plan.save()
    assert import_document(owner, document, slug="imported")["project"]["notes"] == live


# ------------------------------------------------------------------------------------------ downloads


def test_download_json(cast, rich, client):
    member = keyed(cast, cast.member)
    url, _ = signed_export_url(member, cast.payments, "json")
    response = client.get(path_of(url))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == 'attachment; filename="payments.knownbase.json"'
    downloaded = json.loads(response.content)
    expected = export_document(member, cast.payments)
    expected["exported_at"] = downloaded["exported_at"]
    assert downloaded == expected
    assert rich["private"].public_id not in response.content.decode()
    # The download re-imports.
    assert import_document(member, downloaded, slug="from-download")["imported"] == export_counts(expected)


def test_download_markdown(cast, rich, client):
    url, _ = signed_export_url(keyed(cast, cast.owner), cast.payments, "markdown")
    response = client.get(path_of(url))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/markdown")
    assert response["Content-Disposition"] == 'attachment; filename="payments.md"'
    text = response.content.decode()
    assert "# Payments API" in text and rich["grpc"].title in text
    assert rich["deleted"].title not in text
