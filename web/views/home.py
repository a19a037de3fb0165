"""The front page: a landing page for visitors, the team's overview for signed-in people."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from accounts.models import ApiKey, Membership
from accounts.principal import Principal
from memory import store
from web.pages import page
from web.session import signed_in_user, team_page


def home(request: HttpRequest) -> HttpResponse:
    if signed_in_user(request) is None:
        return page(request, "web/landing.html", {"mcp_url": settings.MCP_URL})
    return overview(request)


@team_page
def overview(request: HttpRequest, principal: Principal) -> HttpResponse:
    # A placeholder the dashboard fills later: the team at a glance and the next steps.
    context = {
        "projects": store.list_projects(principal)["projects"],
        "members": Membership.objects.filter(team_id=principal.team_id).count(),
        "keys": ApiKey.objects.visible_to(principal).usable().count(),
        "mcp_url": settings.MCP_URL,
    }
    return page(request, "web/overview.html", context, principal=principal)
