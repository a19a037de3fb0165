"""API keys: create (shown once, with ready-to-paste client configurations), list, revoke.

The store's one rule for every entry point applies: owners and admins create and revoke keys;
members and viewers see their own keys only."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from edge.errors import http_status, raise_for_access
from edge.site import mcp_url, site_url
from memory import store
from memory.store import Principal, StoreError
from web import confirm
from web.client_configs import KEY_ENV, PROJECT_ENV, all_configs, hook_configs
from web.forms import KeyForm
from web.pages import page
from web.session import team_page
from web.views.projects import when


def _key_form(principal: Principal, data: dict[str, str] | None = None) -> KeyForm:
    projects = [(p["slug"], p["name"]) for p in _projects(principal)]
    return KeyForm(data, projects=projects)


def _projects(principal: Principal) -> list[store.results.Project]:
    return sorted(store.list_projects(principal)["projects"], key=lambda p: (p["name"], p["slug"]))


def _row(key: Mapping[str, Any], project_names: dict[str, str]) -> dict[str, Any]:
    project = key["project"]
    expires_at = when(key["expires_at"])
    return {
        **key,
        "project_name": project_names.get(project, "a deleted project") if project else "",
        "created_at": when(key["created_at"]),
        "expires_at": expires_at,
        "expired": expires_at is not None and expires_at <= datetime.now(UTC),
        "last_used_at": when(key["last_used_at"]),
    }


def _keys_page(
    request: HttpRequest, principal: Principal, form: KeyForm | None = None, status: int = 200
) -> HttpResponse:
    keys = store.list_api_keys(principal, include_expired=True)["api_keys"]
    names = {p["slug"]: p["name"] for p in _projects(principal)}
    context = {
        "rows": [_row(key, names) for key in keys],
        "form": form or _key_form(principal),
        "manages_keys": principal.can_manage,
    }
    return page(request, "web/keys.html", context, principal=principal, status=status)


@team_page
def key_list(request: HttpRequest, principal: Principal) -> HttpResponse:
    return _keys_page(request, principal)


@team_page
@require_http_methods(["GET", "POST"])
def key_create(request: HttpRequest, principal: Principal) -> HttpResponse:
    if request.method == "GET":
        # A refresh of the page that showed a new key: the key is shown once, so back to the list.
        return redirect("web:keys")
    form = _key_form(principal, request.POST.dict())
    if not form.is_valid():
        return _keys_page(request, principal, form, status=400)
    data = form.cleaned_data
    expires_at = datetime.now(UTC) + timedelta(days=int(data["expires"])) if data["expires"] else None
    try:
        made = store.create_api_key(
            principal,
            data["name"],
            project=data["project"] or None,
            read_only=data["access"] == "read_only",
            expires_at=expires_at.isoformat() if expires_at else None,
        )
    except StoreError as error:
        raise_for_access(error)
        form.add_error(None, error.message)
        return _keys_page(request, principal, form, status=http_status(error))
    key = _row(made["api_key"], {p["slug"]: p["name"] for p in _projects(principal)})
    raw = made["key"]
    context = {
        "key": key,
        "raw_key": raw,
        "configs": all_configs(mcp_url(), raw),
        "mcp_url": mcp_url(),
        # Hooks and rules files read the key from the environment: their text holds no secret.
        "hooks": hook_configs(site_url(), made["api_key"]["project"]),
        "key_env": KEY_ENV,
        "project_env": PROJECT_ENV,
    }
    response = page(request, "web/key_created.html", context, principal=principal)
    # Shown once: no cache, no history copy of the page holding the key.
    response["Cache-Control"] = "no-store"
    return response


@team_page
@require_POST
def key_revoke(request: HttpRequest, principal: Principal, key_id: str) -> HttpResponse:
    listed = {
        key["id"]: key["name"] for key in store.list_api_keys(principal, include_expired=True)["api_keys"]
    }
    if key_id not in listed:  # revoked already, or not the caller's to see
        raise Http404("No such key.")
    if not confirm.confirmed(request):
        return confirm.confirmation_page(
            request,
            question=f"Revoke the key “{listed[key_id]}”?",
            detail="Agents using it stop working at once.",
            verb="Revoke",
            cancel_url=reverse("web:keys"),
        )
    try:
        key = store.revoke_api_key(principal, key_id)["api_key"]
    except StoreError as error:
        raise_for_access(error)
        raise
    if request.headers.get("HX-Request") == "true":
        # htmx swaps the key's row for this one; without script the page reloads below.
        columns = 8 if principal.can_manage else 7
        return render(request, "web/_key_revoked_row.html", {"key": key, "columns": columns})
    messages.success(request, f"The key “{key['name']}” ({key['id']}…) is revoked.")
    return redirect("web:keys")
