"""The front page: a landing page for visitors, the team's dashboard for signed-in people."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from accounts.models import ApiKey, Membership
from accounts.principal import Principal
from memory import store
from web.pages import page
from web.session import signed_in_user, team_page
from web.views.projects import note_url, when


def home(request: HttpRequest) -> HttpResponse:
    if signed_in_user(request) is None:
        return page(request, "web/landing.html", {"mcp_url": settings.MCP_URL})
    return dashboard(request)


def _dated(rows: list[dict[str, Any]], field: str) -> list[dict[str, Any]]:
    links = {slug: note_url(slug) for slug in {row["project"] for row in rows}}
    return [{**row, "when": when(row[field]), "url": links[row["project"]](row["id"])} for row in rows]


@team_page
def dashboard(request: HttpRequest, principal: Principal) -> HttpResponse:
    overview = store.team_overview(principal)
    context = {
        "overview": overview,
        "latest_changes": _dated(overview["latest_changes"], "updated_at"),
        "today_latest": _dated(overview["today"]["latest"], "created_at"),
        "conflicts_url": reverse("web:conflicts"),
        "can_write": principal.can_write,
        "members": Membership.objects.filter(team_id=principal.team_id).count(),
        "keys": ApiKey.objects.visible_to(principal).usable().count(),
        "mcp_url": settings.MCP_URL,
    }
    return page(request, "web/dashboard.html", context, principal=principal)
