"""Writing a note from the web: judged as an agent's note is, so a duplicate is not stored twice and
a contradiction is shown before anything is saved."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods

from edge.errors import raise_for_access
from memory import store
from memory.store import Principal, StoreError
from web.note_forms import NewNoteForm, add_store_error
from web.pages import page
from web.session import team_page
from web.views.notes import require_writer
from web.views.transfer import project_page_of


@team_page
@require_http_methods(["GET", "POST"])
def note_create(request: HttpRequest, principal: Principal, slug: str) -> HttpResponse:
    require_writer(principal)
    project = project_page_of(principal, slug)
    form = NewNoteForm(request.POST or None)
    contradicted: dict[str, str] | None = None
    if form.is_valid():
        data = form.cleaned_data
        try:
            outcome = store.remember(
                principal,
                slug,
                data["body"],
                type=data["type"],
                title=data["title"] or None,
                tags=data["tags"],
                paths=data["paths"] or None,
                force=data["keep_both"],
            )
        except StoreError as error:
            raise_for_access(error)
            add_store_error(form, error)
        else:
            note = outcome["note"]
            if outcome["status"] == "conflict":
                contradicted = {"id": note["id"], "title": note["title"]}
                form.add_error(
                    None,
                    f"Nothing was saved: this contradicts “{note['title']}”. Change it, mark that note "
                    "historical, or tick the box below to keep both.",
                )
            else:
                said = {
                    "created": "Saved as a new note.",
                    "updated": "Merged into an existing note that said less: it now holds your text.",
                    "duplicate": "Nothing new to save: this note already says it.",
                }[outcome["status"]]
                messages.success(request, said)
                return redirect("web:note", slug, note["id"])
    context = {"project": project, "form": form, "contradicted": contradicted}
    return page(
        request, "web/note_new.html", context, principal=principal, status=400 if form.is_bound else 200
    )
