"""Team administration pages: screening rules and the audit log (owners and admins, as the store
decides: anyone else gets its 403), and usage against the plan's caps (everyone in the team)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_GET, require_http_methods

from edge.errors import http_status, raise_for_access
from memory import store
from memory.store import NotFound, Principal, StoreError
from web.pages import page
from web.session import team_page
from web.transfer_forms import AuditFilterForm, ScreeningRuleForm
from web.usage import usage_rows

AUDIT_PAGE = 50


def _rules(principal: Principal) -> store.results_team.ScreeningRules:
    try:
        return store.list_screening_rules(principal)
    except StoreError as error:
        raise_for_access(error)
        raise


@team_page
@require_http_methods(["GET", "POST"])
def screening(request: HttpRequest, principal: Principal) -> HttpResponse:
    """The team's own patterns and allowed values. POST adds a rule, or deletes the one named by
    `delete`."""
    listing = _rules(principal)  # 403 for anyone but owners and admins, before any write
    form = ScreeningRuleForm()
    status = 200
    if request.method == "POST":
        rule_id = request.POST.get("delete")
        try:
            if rule_id is not None:
                store.delete_screening_rule(principal, rule_id)
                messages.success(request, "The rule is deleted.")
                return redirect("web:screening")
            form = ScreeningRuleForm(request.POST)
            if form.is_valid():
                data = form.cleaned_data
                added = store.add_screening_rule(principal, data["kind"], data["name"], data["value"])
                verb = "added" if added["status"] == "created" else "was there already"
                messages.success(request, f"The rule “{added['rule']['name']}” {verb}.")
                return redirect("web:screening")
        except StoreError as error:
            raise_for_access(error)
            form.add_error("value" if error.code == "invalid_argument" else None, error.message)
        status = 400
    context = {
        "rules": listing["rules"],
        "patterns": [rule for rule in listing["rules"] if rule["kind"] == "pattern"],
        "allowed": [rule for rule in listing["rules"] if rule["kind"] == "allow"],
        "families": listing["families"],
        "form": form,
    }
    return page(request, "web/screening.html", context, principal=principal, status=status)


@team_page
@require_GET
def audit(request: HttpRequest, principal: Principal) -> HttpResponse:
    actors = [member["email"] for member in store.list_members(principal)["members"]]
    projects = sorted(project["slug"] for project in store.list_projects(principal)["projects"])
    form = AuditFilterForm(request.GET or None, actors=actors, projects=projects)
    filters: dict[str, Any] = {}
    if form.is_bound and form.is_valid():
        filters = form.store_filters()
    before = request.GET.get("before") or None
    events: store.results_team.AuditEvents = {"events": [], "next_before": None}
    invalid = form.is_bound and not form.is_valid()
    status = 400 if invalid else 200
    try:
        if invalid:
            store.list_audit_events(principal, limit=1)  # only for its refusal of non-managers (403)
        else:
            events = store.list_audit_events(principal, limit=AUDIT_PAGE, before=before, **filters)
    except NotFound:
        form.add_error(None, "That page of the log is gone: start again from the newest events.")
        status = 400
    except StoreError as error:
        raise_for_access(error)
        form.add_error(None, error.message)
        status = http_status(error)
    query = request.GET.copy()
    query.pop("before", None)
    context = {
        "form": form,
        "events": events["events"],
        "next_before": events["next_before"],
        "filter_query": query.urlencode(),
        "paged": before is not None,
    }
    return page(request, "web/audit.html", context, principal=principal, status=status)


@team_page
@require_GET
def usage(request: HttpRequest, principal: Principal) -> HttpResponse:
    usage = store.get_usage(principal)
    context = {"usage": usage, "usage_rows": usage_rows(usage)}
    return page(request, "web/usage.html", context, principal=principal)
