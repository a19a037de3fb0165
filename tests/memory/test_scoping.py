from __future__ import annotations

import pytest

from accounts.errors import InvalidArgument, NotFound
from memory.models import Note, Project
from memory.notes.scoping import project_for


def note(cast, project, **fields):
    team = cast.globex if project == cast.lab else cast.acme
    return Note.objects.create(team=team, project=project, title="t", content_hash="h", **fields)


def test_visible_projects_per_cast(cast):
    assert set(Project.objects.visible_to(cast.principal(cast.member))) == {cast.payments, cast.website}
    assert set(Project.objects.visible_to(cast.principal(cast.outsider))) == {cast.lab}
    assert set(Project.objects.visible_to(cast.principal(cast.owner, project=cast.website))) == {cast.website}


def test_visible_notes_hide_other_teams_projects_and_private_notes(cast):
    team_note = note(cast, cast.payments)
    website_note = note(cast, cast.website)
    own_private = note(cast, cast.payments, author=cast.member, visibility="private")
    others_private = note(cast, cast.payments, author=cast.owner, visibility="private")
    foreign = note(cast, cast.lab)
    deleted = note(cast, cast.payments)
    deleted.deleted_at = deleted.created_at
    deleted.save()

    assert set(Note.objects.visible_to(cast.principal(cast.member)).live()) == {
        team_note,
        website_note,
        own_private,
    }
    assert set(Note.objects.visible_to(cast.principal(cast.member, project=cast.website)).live()) == {
        website_note
    }
    assert set(Note.objects.visible_to(cast.principal(cast.outsider)).live()) == {foreign}
    assert others_private not in set(Note.objects.visible_to(cast.principal(cast.viewer)).live())
    assert deleted in set(Note.objects.visible_to(cast.principal(cast.member)))


def test_project_for_gives_not_found_outside_scope(cast):
    assert project_for(cast.principal(cast.member), "payments") == cast.payments
    for principal, slug in [
        (cast.principal(cast.outsider), "payments"),
        (cast.principal(cast.member, project=cast.website), "payments"),
        (cast.principal(cast.member), "does-not-exist"),
    ]:
        with pytest.raises(NotFound):
            project_for(principal, slug)
    with pytest.raises(InvalidArgument):
        project_for(cast.principal(cast.member), "  ")
