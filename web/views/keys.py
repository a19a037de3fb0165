"""API keys: create (shown once, with ready-to-paste client configurations), list, revoke."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from accounts import actions
from accounts.models import ApiKey, Role
from billing import actions as billing_actions
from edge.errors import http_status
from memory.models import Project
from memory.store import Principal, StoreError
from web.client_configs import all_configs
from web.forms import KeyForm
from web.pages import page
from web.session import current_team, signed_in_user, team_page


def _key_form(principal: Principal, data: dict[str, str] | None = None) -> KeyForm:
    projects = [(p.public_id, p.name) for p in Project.objects.visible_to(principal).order_by("name", "pk")]
    return KeyForm(data, projects=projects, read_only_only=principal.role == Role.VIEWER)


def _keys_page(
    request: HttpRequest, principal: Principal, form: KeyForm | None = None, status: int = 200
) -> HttpResponse:
    keys = list(
        ApiKey.objects.visible_to(principal)
        .filter(revoked_at__isnull=True)
        .select_related("user")
        .order_by("-created_at", "-pk")
    )
    project_names = dict(
        Project.objects.visible_to(principal)
        .filter(pk__in={k.project_id for k in keys if k.project_id})
        .values_list("pk", "name")
    )
    now = timezone.now()
    rows = [
        {
            "key": key,
            "project": project_names.get(key.project_id, "a deleted project") if key.project_id else "",
            "expired": key.expires_at is not None and key.expires_at <= now,
        }
        for key in keys
    ]
    context = {"rows": rows, "form": form or _key_form(principal), "sees_all": principal.can_manage}
    return page(request, "web/keys.html", context, principal=principal, status=status)


@team_page
def key_list(request: HttpRequest, principal: Principal) -> HttpResponse:
    return _keys_page(request, principal)


@team_page
@require_POST
def key_create(request: HttpRequest, principal: Principal) -> HttpResponse:
    user = signed_in_user(request)
    form = _key_form(principal, request.POST.dict())
    if user is None or not form.is_valid():
        return _keys_page(request, principal, form, status=400)
    data = form.cleaned_data
    project = None
    if data["project"]:
        project = Project.objects.visible_to(principal).filter(public_id=data["project"]).first()
        if project is None:  # deleted between showing the form and sending it
            form.add_error("project", "That project no longer exists.")
            return _keys_page(request, principal, form, status=400)
    expires_at = timezone.now() + timedelta(days=int(data["expires"])) if data["expires"] else None
    try:
        key, raw = billing_actions.issue_api_key(
            current_team(principal),
            user,
            project_id=project.pk if project else None,
            name=data["name"],
            read_only=data["access"] == "read_only",
            expires_at=expires_at,
            actor=principal,
        )
    except StoreError as error:
        form.add_error(None, error.message)
        return _keys_page(request, principal, form, status=http_status(error))
    context = {
        "key": key,
        "raw_key": raw,
        "project": project,
        "configs": all_configs(settings.MCP_URL, raw),
        "mcp_url": settings.MCP_URL,
    }
    response = page(request, "web/key_created.html", context, principal=principal)
    # Shown once: no cache, no history copy of the page holding the key.
    response["Cache-Control"] = "no-store"
    return response


@team_page
@require_POST
def key_revoke(request: HttpRequest, principal: Principal, lookup: str) -> HttpResponse:
    key = ApiKey.objects.visible_to(principal).filter(lookup=lookup, revoked_at__isnull=True).first()
    if key is None:
        raise Http404("No such key.")
    actions.revoke_api_key(key, actor=principal)
    if request.headers.get("HX-Request") == "true":
        # htmx swaps the key's row for this one; without script the page reloads below.
        columns = 8 if principal.can_manage else 7
        return render(request, "web/_key_revoked_row.html", {"key": key, "columns": columns})
    messages.success(request, f"The key “{key.name}” ({key.display_prefix}…) is revoked.")
    return redirect("web:keys")
