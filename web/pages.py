"""Rendering with the app shell every signed-in page shows: the grouped navigation, the team
switcher and its plan, sign-out, and the banner when a cap is nearly or fully used."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import SimpleLazyObject

from memory import store
from memory.store import Principal
from web.session import current_principal, signed_in_user

CACHED = "_knownbase_shell"  # the request attribute holding the shell's data: one build per request


def navigation(request: HttpRequest, principal: Principal | None) -> dict[str, Any] | None:
    cached: dict[str, Any] | None = getattr(request, CACHED, None)
    if cached is not None:
        return cached
    user = signed_in_user(request)
    if user is None:
        return None
    principal = principal or current_principal(request)
    teams = store.list_teams(principal or store.principal_for_account(user))["teams"]
    team = next((t for t in teams if t["current"]), None)
    shell = {
        "user": user,
        "teams": teams,
        "team": team,
        "role": principal.role if principal else "",
        "can_manage": bool(principal and principal.can_manage),
        "section": request.resolver_match.url_name if request.resolver_match else "",
        "standing": store.get_cap_standing(principal) if principal and not principal.is_staff else None,
    }
    setattr(request, CACHED, shell)
    return shell


def shell(request: HttpRequest) -> dict[str, Any]:
    """Context processor: pages rendered outside `page` (OAuth consent, error pages) get the shell
    too. Lazy, so a page that passes its own `nav` costs nothing here."""
    return {"nav": SimpleLazyObject(lambda: navigation(request, None))}


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
