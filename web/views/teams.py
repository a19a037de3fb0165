"""Teams: the switcher, creating a team, and the team's settings."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods, require_POST

from memory import store
from memory.store import Principal, StoreError, User
from web.forms import TeamForm
from web.pages import page
from web.session import account_page, choose_team, current_principal, manager_page


@account_page
def team_list(request: HttpRequest, user: User) -> HttpResponse:
    principal = current_principal(request)
    context = {
        "teams": store.list_teams(principal or store.principal_for_account(user))["teams"],
        "form": TeamForm(),
    }
    return page(request, "web/teams.html", context, principal=principal)


@account_page
@require_POST
def team_switch(request: HttpRequest, user: User) -> HttpResponse:
    try:
        team = store.find_team(store.principal_for_account(user), str(request.POST.get("team", "")))
    except StoreError:
        raise Http404("No such team.") from None
    choose_team(request, team["id"])
    messages.info(request, f"You are now working in {team['name']}.")
    return redirect("web:home")


@account_page
@require_http_methods(["GET", "POST"])
def team_create(request: HttpRequest, user: User) -> HttpResponse:
    form = TeamForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            team = store.create_team(store.principal_for_account(user), form.cleaned_data["name"])
        except StoreError as error:
            form.add_error("name", error.message)
        else:
            choose_team(request, team["id"])
            messages.success(request, f"Team {team['name']} is created, and you are working in it.")
            return redirect("web:home")
    return page(request, "web/team_create.html", {"form": form}, status=400 if form.errors else 200)


@manager_page
@require_http_methods(["GET", "POST"])
def team_settings(request: HttpRequest, principal: Principal) -> HttpResponse:
    team = store.get_team(principal)
    form = TeamForm(request.POST if request.method == "POST" else None, initial={"name": team["name"]})
    if request.method == "POST" and form.is_valid():
        try:
            store.rename_team(principal, form.cleaned_data["name"])
        except StoreError as error:
            form.add_error("name", error.message)
        else:
            messages.success(request, "The team's name is saved.")
            return redirect("web:team-settings")
    context = {"form": form, "team": team}
    return page(
        request, "web/team_settings.html", context, principal=principal, status=400 if form.errors else 200
    )
