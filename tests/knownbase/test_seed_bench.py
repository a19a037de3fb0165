"""seed_bench: a realistic mix, the hot project's size, searchable and (when asked) embedded notes."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from accounts import actions
from accounts.models import Membership, Role, Team, User
from billing.models import Plan
from billing.plans import ensure_catalogue
from memory import store
from memory.models import LinkKind, Note, NoteLink, NoteStatus, NoteType, Project, Visibility


def seed(*args: str) -> str:
    out = StringIO()
    call_command("seed_bench", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


@pytest.fixture(autouse=True)
def _plans(db: None) -> None:
    # A transactional test run earlier in this process flushed the plans the migration seeded.
    ensure_catalogue(Plan)


@pytest.fixture
def seeded(db: None) -> Team:
    seed("--notes", "300", "--projects", "3", "--hot-share", "0.5", "--embed", "none")
    return Team.objects.get(slug="bench-seed")


def test_the_mix_has_every_type_status_and_visibility(seeded: Team) -> None:
    notes = Note.objects.filter(team=seeded)
    assert notes.count() == 300
    assert set(notes.values_list("type", flat=True)) == set(NoteType.values)
    assert {NoteStatus.CURRENT, NoteStatus.SUPERSEDED, NoteStatus.DISPUTED, NoteStatus.HISTORICAL} <= set(
        notes.values_list("status", flat=True)
    )
    assert notes.filter(visibility=Visibility.PRIVATE).exists()
    assert notes.filter(deleted_at__isnull=False).exists()
    assert notes.exclude(tags=[]).exists()
    assert len(set(notes.values_list("author_id", flat=True))) > 1


def test_users_projects_and_the_hot_share(seeded: Team) -> None:
    roles = set(Membership.objects.filter(team=seeded).values_list("role", flat=True))
    assert roles == {Role.OWNER, Role.MEMBER, Role.VIEWER}
    sizes = {p.slug: p.notes.count() for p in Project.objects.filter(team=seeded)}
    assert sizes == {"hot-150": 150, "project-01": 75, "project-02": 75}


def test_supersession_chains_and_disputed_pairs_are_consistent(seeded: Team) -> None:
    superseded = Note.objects.filter(team=seeded, status=NoteStatus.SUPERSEDED)
    assert superseded.exists()
    for note in superseded.select_related("superseded_by"):
        newer = note.superseded_by
        assert newer is not None and newer.project_id == note.project_id
        assert newer.created_at >= note.created_at
    # Some chain is longer than one step: a superseded note superseded by another superseded one.
    assert superseded.filter(superseded_by__status=NoteStatus.SUPERSEDED).exists()
    disputed = Note.objects.filter(team=seeded, status=NoteStatus.DISPUTED)
    assert disputed.count() % 2 == 0 and disputed.exists()
    contradictions = NoteLink.objects.filter(kind=LinkKind.CONTRADICTS, from_note__team=seeded)
    assert {n for link in contradictions for n in (link.from_note_id, link.to_note_id)} == set(
        disputed.values_list("pk", flat=True)
    )
    assert NoteLink.objects.filter(kind=LinkKind.RELATES_TO, from_note__team=seeded).exists()
    assert NoteLink.objects.filter(kind=LinkKind.DEPENDS_ON, from_note__team=seeded).exists()


def test_notes_are_searchable_and_in_the_change_feed(seeded: Team) -> None:
    owner = User.objects.get(email="bench-seed-owner@example.test")
    principal = actions.owner_principal(seeded, owner, client_name="test")
    found = store.search_notes(principal, "idempotency keys", project="hot-150", semantic=False)
    assert found["results"]
    page = store.get_changes_since(principal, "hot-150", limit=50)
    assert len(page["changes"]) == 50
    assert store.get_context(principal, "hot-150", detail="lean")["project"]["slug"] == "hot-150"


def test_a_rerun_keeps_the_data_and_reset_seeds_the_same_again(seeded: Team) -> None:
    titles = sorted(Note.objects.filter(team=seeded).values_list("title", flat=True))
    assert "already seeded" in seed("--notes", "300", "--projects", "3", "--embed", "none")
    assert Note.objects.filter(team=seeded).count() == 300
    seed("--notes", "300", "--projects", "3", "--hot-share", "0.5", "--embed", "none", "--reset")
    team = Team.objects.get(slug="bench-seed")
    assert team.pk != seeded.pk
    assert sorted(Note.objects.filter(team=team).values_list("title", flat=True)) == titles
    assert Note.objects.count() == 300  # nothing of the first seed is left behind


def test_embed_hot_gives_vectors_to_the_hot_project_only(db: None) -> None:
    seed("--notes", "80", "--projects", "2", "--hot-notes", "20", "--embed", "hot")
    hot = Note.objects.filter(project__slug="hot-20", deleted_at__isnull=True)
    assert hot.exists() and not hot.filter(embedding_model="").exists()
    assert not Note.objects.filter(project__slug="project-01").exclude(embedding_model="").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--notes", "100", "--hot-notes", "200"], "exceed"),
        (["--notes", "100", "--projects", "1", "--hot-notes", "50"], "no project"),
        (["--notes", "0"], "at least 1"),
        (["--notes", "100", "--hot-share", "2"], "--hot-share"),
    ],
)
def test_bad_arguments_are_refused_clearly(db: None, args: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        seed(*args)
    assert not Team.objects.filter(slug="bench-seed").exists()
