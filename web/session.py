"""The signed-in person's Principal (edge.principals: the session remembers the chosen team, resolved
once per request) for the pages.

Every page that shows team data takes the Principal from `team_page` (or `manager_page`), so the same
scope checks as the MCP tools apply: a team the user is not in is a 404.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Concatenate, ParamSpec

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect

from edge import principals
from edge.principals import SESSION_TEAM_KEY, signed_in_user
from memory.store import Principal, User

__all__ = [
    "TEAM_SESSION_KEY",
    "account_page",
    "choose_team",
    "current_principal",
    "manager_page",
    "signed_in_user",
    "team_page",
]

TEAM_SESSION_KEY = SESSION_TEAM_KEY

P = ParamSpec("P")
TeamView = Callable[Concatenate[HttpRequest, Principal, P], HttpResponse]
View = Callable[Concatenate[HttpRequest, P], HttpResponse]


def current_principal(request: HttpRequest) -> Principal | None:
    """The Principal of the session's team, else of the user's first team; None for anonymous users
    and users in no team."""
    return principals.session_principal(request)


def choose_team(request: HttpRequest, team_id: int) -> Principal:
    """Act in `team_id` from now on; 404 when the user is not a member of it."""
    principal = principals.choose_team(request, team_id)
    if principal is None:
        raise Http404("No such team.")
    return principal


def team_page(view: TeamView[P]) -> View[P]:
    """Signed in and in a team: the view gets the session Principal. Anonymous → the login page;
    someone in no team → the page that creates one."""

    def wrapper(request: HttpRequest, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        if signed_in_user(request) is None:
            return redirect_to_login(request.get_full_path())
        principal = current_principal(request)
        if principal is None:
            return redirect("web:team-create")
        return view(request, principal, *args, **kwargs)

    functools.update_wrapper(wrapper, view)
    return wrapper


def manager_page(view: TeamView[P]) -> View[P]:
    """A team page for owners and admins only: members and viewers get 403."""

    def check(
        request: HttpRequest, principal: Principal, /, *args: P.args, **kwargs: P.kwargs
    ) -> HttpResponse:
        if not principal.can_manage:
            raise PermissionDenied("Only the team's owners and admins can do this.")
        return view(request, principal, *args, **kwargs)

    functools.update_wrapper(check, view)
    return team_page(check)


def account_page(view: Callable[Concatenate[HttpRequest, User, P], HttpResponse]) -> View[P]:
    """Signed in, team or not (account settings): the view gets the User."""

    def wrapper(request: HttpRequest, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        user = signed_in_user(request)
        if user is None:
            return redirect_to_login(request.get_full_path())
        return view(request, user, *args, **kwargs)

    functools.update_wrapper(wrapper, view)
    return wrapper
