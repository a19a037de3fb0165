"""Staff in the Django admin: every model listed and searchable, private notes never shown, and
moderation (resolve, mark historical, restore) through the store, audited with the staff user."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission

from accounts.models import AuditEvent, User
from memory import store
from memory.models import Note, NoteLink
from tests.mcp_gateway.state import db_state, save

MODERATION = "/admin/memory/note/moderation/"
RESOLVE = "/admin/memory/note/moderation/resolve/"
SECRET_TITLE = "Olivia's private doubt"
SECRET_BODY = "only-olivia-reads-this"


@pytest.fixture
def staff(db):
    return User.objects.create_superuser("staff@knownbase.test", "a long staff password")


@pytest.fixture
def world(cast):
    """A contradiction in each team, and a private disputed note with a link and a revision."""
    a = save(cast, "Tokens are opaque", "Sessions use opaque tokens.")
    b = save(cast, "Tokens are JWTs", "Sessions use JWTs.")
    store.relate_notes(cast.principal(cast.member), a, b, "contradicts")
    theirs = save(cast, "Lab runs at night", "Nightly.", user=cast.outsider, project="lab", status="disputed")
    private = save(cast, SECRET_TITLE, SECRET_BODY, user=cast.owner, visibility="private", status="disputed")
    store.update_note(cast.principal(cast.owner), private, body=f"{SECRET_BODY} still")
    store.relate_notes(cast.principal(cast.owner), private, a, "contradicts")
    return {"a": a, "b": b, "theirs": theirs, "private": private}


def note(public_id):
    return Note.objects.get(public_id=public_id)


def our_models():
    return [
        model
        for model in admin.site._registry
        if model._meta.app_label in {"accounts", "billing", "memory", "oauth2_provider"}
    ]


def test_every_model_of_ours_is_registered():
    from django.apps import apps

    for label in ("accounts", "billing", "memory"):
        for model in apps.get_app_config(label).get_models():
            assert model in admin.site._registry, model


def test_every_changelist_renders_with_search(client, staff, world):
    client.force_login(staff)
    for model in our_models():
        url = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
        assert client.get(url, {"q": "acme"}).status_code == 200, url
        assert client.get(url).status_code == 200, url


def test_private_notes_are_absent_from_every_admin_page(client, staff, world):
    client.force_login(staff)
    pages = [f"/admin/memory/{name}/" for name in ("note", "noterevision", "notelink")]
    pages += [MODERATION, "/admin/memory/note/?conflict=disputed", "/admin/memory/note/?q=private"]
    for url in pages:
        html = client.get(url).content.decode()
        assert SECRET_TITLE not in html and SECRET_BODY not in html and world["private"] not in html, url
    private_pk = note(world["private"]).pk
    opened = client.get(f"/admin/memory/note/{private_pk}/change/", follow=True)
    assert SECRET_BODY not in opened.content.decode()
    shared = client.get(f"/admin/memory/note/{note(world['a']).pk}/change/").content.decode()
    assert "Sessions use opaque tokens." in shared  # team notes are open to moderation


def test_the_moderation_view_lists_every_teams_conflicts(client, staff, world):
    client.force_login(staff)
    html = client.get(MODERATION).content.decode()
    assert "Acme" in html and "Globex" in html
    assert world["a"] in html and world["b"] in html and world["theirs"] in html
    assert ">A supersedes B</button>" in html and ">Keep as current</button>" in html
    assert 'href="/admin/memory/note/moderation/"' in client.get("/admin/memory/note/").content.decode()


def test_resolving_in_the_admin_goes_through_the_store_and_is_audited(client, staff, cast, world):
    client.force_login(staff)
    form = {
        "team": cast.acme.pk,
        "a": world["a"],
        "b": world["b"],
        "resolution": "a_supersedes_b",
        "a_version": 1,
        "b_version": 1,
    }
    response = client.post(RESOLVE, form, follow=True)
    assert "Resolved (A supersedes B)." in response.content.decode()
    assert note(world["b"]).status == "superseded" and note(world["b"]).last_edited_by == staff
    assert not NoteLink.objects.filter(from_note=note(world["a"]), to_note=note(world["b"])).exists()
    event = AuditEvent.objects.get(action="conflict.resolved")
    assert (event.actor, event.team, event.auth_method, event.client) == (staff, cast.acme, "staff", "admin")
    edit = AuditEvent.objects.get(action="note.updated", object_id=world["b"], detail__via="resolve_conflict")
    assert edit.actor == staff and edit.team == cast.acme


def test_a_lone_disputed_note_is_reported_with_the_button_it_was_settled_by(client, staff, cast, world):
    client.force_login(staff)
    form = {"team": cast.globex.pk, "a": world["theirs"], "resolution": "both_true", "a_version": 1}
    html = client.post(RESOLVE, form, follow=True).content.decode()
    assert "Resolved (Keep as current)." in html and "Resolved (Both true)" not in html
    assert note(world["theirs"]).status == "current"


def test_a_stale_or_wrong_team_resolution_changes_nothing(client, staff, cast, world):
    client.force_login(staff)
    before = db_state()
    stale = {
        "team": cast.acme.pk,
        "a": world["a"],
        "b": world["b"],
        "resolution": "both_true",
        "a_version": 9,
    }
    assert "is at version 1" in client.post(RESOLVE, stale, follow=True).content.decode()
    wrong_team = {**stale, "team": cast.globex.pk, "a_version": 1}
    assert "No note" in client.post(RESOLVE, wrong_team, follow=True).content.decode()
    private = {"team": cast.acme.pk, "a": world["private"], "resolution": "a_historical"}
    assert "No note" in client.post(RESOLVE, private, follow=True).content.decode()
    for junk in ({"team": "x"}, {"team": "9" * 40, "a": world["a"], "resolution": "both_true"}, {}):
        assert client.post(RESOLVE, junk, follow=True).status_code == 200
    assert db_state() == before


def test_actions_mark_historical_settle_and_restore_through_the_store(client, staff, cast, world):
    client.force_login(staff)
    changelist = "/admin/memory/note/"
    shared = note(world["b"])
    client.post(changelist, {"action": "mark_historical", "_selected_action": [shared.pk]})
    assert note(world["b"]).status == "historical"
    client.post(changelist, {"action": "settle_dispute", "_selected_action": [note(world["theirs"]).pk]})
    assert note(world["theirs"]).status == "current"
    store.delete_note(cast.principal(cast.member), world["a"])
    client.post(changelist, {"action": "restore", "_selected_action": [note(world["a"]).pk]})
    assert note(world["a"]).deleted_at is None
    audited = AuditEvent.objects.filter(actor=staff).values_list("action", "team__slug", "object_id")
    assert set(audited) >= {
        ("note.updated", "acme", world["b"]),
        ("conflict.resolved", "globex", world["theirs"]),
        ("note.restored", "acme", world["a"]),
    }
    # A private note cannot be selected: it is not in the admin's queryset.
    private = note(world["private"])
    client.post(changelist, {"action": "mark_historical", "_selected_action": [private.pk]})
    assert note(world["private"]).status == "disputed"


def test_non_staff_are_refused(client, cast, world):
    client.force_login(cast.owner)
    before = db_state()
    for url in (MODERATION, "/admin/memory/note/", "/admin/accounts/auditevent/"):
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"]
    form = {"team": cast.acme.pk, "a": world["a"], "b": world["b"], "resolution": "both_true"}
    assert client.post(RESOLVE, form).status_code == 302
    assert db_state() == before


def test_staff_who_may_only_view_notes_cannot_moderate(client, cast, world):
    viewer = User.objects.create_user("support@knownbase.test", "a long staff password", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_note"))
    client.force_login(viewer)
    html = client.get(MODERATION).content.decode()
    assert world["a"] in html and "A supersedes B" not in html
    before = db_state()
    form = {"team": cast.acme.pk, "a": world["a"], "b": world["b"], "resolution": "both_true"}
    assert "permission to change notes" in client.post(RESOLVE, form, follow=True).content.decode()
    assert db_state() == before


def test_the_audit_log_is_read_only(client, staff, world):
    client.force_login(staff)
    event = AuditEvent.objects.latest("pk")
    assert client.get("/admin/accounts/auditevent/", {"q": "note"}).status_code == 200
    assert client.get("/admin/accounts/auditevent/add/").status_code == 403
    assert client.post(f"/admin/accounts/auditevent/{event.pk}/delete/", {"post": "yes"}).status_code == 403
    assert client.post(f"/admin/accounts/auditevent/{event.pk}/change/", {"action": "x"}).status_code == 403
    assert AuditEvent.objects.filter(pk=event.pk, action=event.action).exists()


def test_the_admin_index_links_the_moderation_queue(client, staff):
    client.force_login(staff)
    html = client.get("/admin/").content.decode()
    assert 'id="moderation-link"' in html and "/admin/memory/note/moderation/" in html
