"""Rendering with the navigation every signed-in page shows (team switcher, links, account)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from memory import store
from memory.store import Principal
from web.session import current_principal, signed_in_user


def navigation(request: HttpRequest, principal: Principal | None) -> dict[str, Any] | None:
    user = signed_in_user(request)
    if user is None:
        return None
    principal = principal or current_principal(request)
    teams = store.list_teams(principal or store.principal_for_account(user))["teams"]
    team = next((t for t in teams if t["current"]), None)
    standing = store.cap_standing(principal) if principal is not None else None
    return {
        "plan": standing["plan"] if standing else "",
        "cap_warning": standing["warning"] if standing else None,
        "user": user,
        "teams": teams,
        "team": team,
        "role": principal.role if principal else "",
        "can_manage": bool(principal and principal.can_manage),
        "section": request.resolver_match.url_name if request.resolver_match else "",
    }


def page(
    request: HttpRequest,
    template: str,
    context: dict[str, Any] | None = None,
    *,
    principal: Principal | None = None,
    status: int = 200,
) -> HttpResponse:
    return render(
        request, template, {"nav": navigation(request, principal), **(context or {})}, status=status
    )
