"""Teams: the switcher, creating a team, and the team's settings."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods, require_POST

from accounts import actions
from accounts.models import Membership, User
from memory.store import Principal, StoreError
from web.forms import TeamForm
from web.pages import page
from web.session import account_page, choose_team, current_principal, current_team, manager_page


@account_page
def team_list(request: HttpRequest, user: User) -> HttpResponse:
    memberships = (
        Membership.objects.filter(user=user).select_related("team").order_by("team__name", "team_id")
    )
    principal = current_principal(request)
    context = {
        "memberships": memberships,
        "current_team_id": principal.team_id if principal else None,
        "form": TeamForm(),
    }
    return page(request, "web/teams.html", context, principal=principal)


@account_page
@require_POST
def team_switch(request: HttpRequest, user: User) -> HttpResponse:
    membership = Membership.objects.filter(user=user, team__slug=str(request.POST.get("team", ""))).first()
    if membership is None:
        raise Http404("No such team.")
    principal = choose_team(request, membership.team_id)
    messages.info(request, f"You are now working in {current_team(principal).name}.")
    return redirect("web:home")


@account_page
@require_http_methods(["GET", "POST"])
def team_create(request: HttpRequest, user: User) -> HttpResponse:
    form = TeamForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        team = actions.create_team(user, form.cleaned_data["name"])
        choose_team(request, team.pk)
        messages.success(request, f"Team {team.name} is created, and you are working in it.")
        return redirect("web:home")
    return page(request, "web/team_create.html", {"form": form}, status=400 if form.errors else 200)


@manager_page
@require_http_methods(["GET", "POST"])
def team_settings(request: HttpRequest, principal: Principal) -> HttpResponse:
    team = current_team(principal)
    form = TeamForm(request.POST if request.method == "POST" else None, initial={"name": team.name})
    if request.method == "POST" and form.is_valid():
        try:
            actions.rename_team(team, form.cleaned_data["name"], actor=principal)
        except StoreError as error:
            form.add_error("name", error.message)
        else:
            messages.success(request, "The team's name is saved.")
            return redirect("web:team-settings")
    context = {"form": form, "team": team}
    return page(
        request, "web/team_settings.html", context, principal=principal, status=400 if form.errors else 200
    )
