"""The front page: a landing page for visitors, the team's dashboard for signed-in people."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from edge.site import mcp_url
from memory import store
from memory.store import Principal
from web.pages import page
from web.session import signed_in_user, team_page
from web.views.projects import note_url, when


def home(request: HttpRequest) -> HttpResponse:
    if signed_in_user(request) is None:
        return page(request, "web/landing.html", {"mcp_url": mcp_url()})
    return dashboard(request)


def _dated(rows: Sequence[Mapping[str, Any]], field: str) -> list[dict[str, Any]]:
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
        "members": len(store.list_members(principal)["members"]),
        "keys": len(store.list_api_keys(principal)["api_keys"]),
        "mcp_url": mcp_url(),
    }
    return page(request, "web/dashboard.html", context, principal=principal)
