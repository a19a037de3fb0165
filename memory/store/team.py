"""Team administration: usage against the plan, screening rules and the audit log (owners and admins)."""

from __future__ import annotations

from django.utils import timezone

from accounts import actions as accounts_actions
from accounts import audit
from accounts.errors import Forbidden, InvalidArgument, NotFound
from accounts.models import API_KEY_PREFIX, ApiKey, AuditEvent, Team, User
from accounts.principal import Principal
from billing import actions as billing_actions
from memory import (
    idempotency,
    inputs,
    registry,
    usage,
    validation,
)
from memory.models import (
    Project,
    ScreeningRule,
)
from memory.notes.lifecycle import rfc3339
from memory.notes.scoping import echo, project_for
from memory.screening import guard
from memory.screening import patterns as screening_patterns
from memory.screening import rules as screening_rules
from memory.shapes import results_team


@registry.read
def get_usage(principal: Principal) -> results_team.Usage:
    """The team's plan, its caps and what the team uses of each."""
    return usage.usage(principal.team_id)


MANAGE_MESSAGE = "Only team owners and admins can do this."


def _require_manager(principal: Principal) -> None:
    if not principal.can_manage or principal.project_id is not None:
        raise Forbidden(MANAGE_MESSAGE + " Use an owner's or admin's team-wide read-write credential.")


def _rule_dict(rule: ScreeningRule) -> results_team.ScreeningRule:
    # Allow-listed values are shown only as a masked hint: the list is for the gate, not for reading back.
    shown = (
        rule.value
        if rule.kind == ScreeningRule.Kind.PATTERN
        else f"{rule.value[:4]}…({len(rule.value)} chars)"
    )
    return {
        "id": rule.public_id,
        "kind": rule.kind,
        "name": rule.name,
        "value": shown,
        "created_at": rfc3339(rule.created_at),
    }


@registry.write(unscreened=("value",))
def add_screening_rule(
    principal: Principal, kind: str, name: str, value: str
) -> results_team.ScreeningRuleAdded:
    """A team pattern (a regular expression refused on every write) or an exact value to allow."""
    _require_manager(principal)
    validation.choice(kind, "kind", ScreeningRule.Kind.values)
    clean_name = validation.text(name, "name", limit=inputs.RULE_NAME.max_length, required=True)
    limit = inputs.RULE_VALUE.max_length
    if not isinstance(value, str) or not value or len(value) > limit:
        raise InvalidArgument(f"`value` must be a non-empty string of at most {limit} characters.")
    if kind == ScreeningRule.Kind.PATTERN:
        # Only allow-list values skip the gate (they are known-safe by definition); a pattern is
        # screened like any other text, so a literal secret cannot be stored as a "pattern".
        guard.enforce(principal, "add_screening_rule", {"value": value})
        screening_rules.check_pattern(value)
    rule, created = ScreeningRule.objects.get_or_create(
        team_id=principal.team_id,
        kind=kind,
        value=value,
        defaults={"name": clean_name, "created_by_id": principal.user_id},
    )
    if created:
        audit.record(principal, "screening.rule_added", object_id=rule.public_id, kind=kind, name=clean_name)
    return {"rule": _rule_dict(rule), "status": "created" if created else "exists"}


@registry.write
def delete_screening_rule(principal: Principal, rule_id: str) -> results_team.ScreeningRuleDeleted:
    _require_manager(principal)
    rule = (
        ScreeningRule.objects.visible_to(principal).filter(public_id=rule_id).first()
        if isinstance(rule_id, str)
        else None
    )
    if rule is None:
        raise NotFound(f"No screening rule {echo(rule_id)} in this team.")
    rule.delete()
    audit.record(
        principal, "screening.rule_deleted", object_id=rule.public_id, kind=rule.kind, name=rule.name
    )
    return {"status": "deleted", "id": rule.public_id}


@registry.read
def list_screening_rules(principal: Principal) -> results_team.ScreeningRules:
    _require_manager(principal)
    rules = ScreeningRule.objects.visible_to(principal).order_by("kind", "name")
    return {"rules": [_rule_dict(rule) for rule in rules], "families": list(screening_patterns.FAMILY_NAMES)}


@registry.read
def list_audit_events(
    principal: Principal,
    limit: int | None = None,
    before: str | None = None,
    action: str | None = None,
    actor: str | None = None,
    project: str | None = None,
    since: str | None = None,
    until: str | None = None,
) -> results_team.AuditEvents:
    """The team's audit log, newest first (owners and admins). Page with `before`: the last id seen.

    Filters: `action` (exact), `actor` (the member's email), `project` (the slug at the time of the
    event, so events of a renamed or deleted project stay findable), `since` ≤ time < `until`."""
    _require_manager(principal)
    count = validation.declared_int(limit, "limit", inputs.AUDIT_LIMIT)
    events = AuditEvent.objects.for_team(principal.team_id).select_related("actor")
    if before is not None:
        anchor = (
            AuditEvent.objects.for_team(principal.team_id)
            .filter(
                public_id=validation.text(
                    before, "before", limit=inputs.AUDIT_EVENT_ID.max_length, required=True
                )
            )
            .values_list("pk", flat=True)
            .first()
        )
        if anchor is None:
            raise NotFound(f"No audit event {echo(before)} in this team.")
        events = events.filter(pk__lt=anchor)
    if action:
        events = events.filter(action=validation.text(action, "action", limit=inputs.ACTION.max_length))
    if actor:
        email = validation.text(actor, "actor", limit=inputs.EMAIL.max_length).strip()
        events = events.filter(actor__email__iexact=email)
    if project:
        slug = validation.text(project, "project", limit=inputs.PROJECT_SLUG.max_length).strip()
        events = events.filter(project_slug=slug)
    if since:
        events = events.filter(created_at__gte=validation.timestamp(since, "since"))
    if until:
        events = events.filter(created_at__lt=validation.timestamp(until, "until"))
    rows = list(events.order_by("-pk")[:count])
    return {
        "events": [
            {
                "id": event.public_id,
                "action": event.action,
                "actor": event.actor.email if event.actor else None,
                "client": event.client,
                "auth_method": event.auth_method,
                "project": event.project_slug or None,
                "object_id": event.object_id,
                "detail": event.detail,
                "created_at": rfc3339(event.created_at),
            }
            for event in rows
        ],
        "next_before": rows[-1].public_id if len(rows) == count else None,
    }


KEY_RULE = "Only team owners and admins create and revoke API keys; members and viewers see their own keys."


def _manages_keys(principal: Principal) -> bool:
    return principal.can_manage and principal.project_id is None


def _require_key_manager(principal: Principal) -> None:
    """The one API-key rule of every entry point (MCP, REST, web): owners and admins, acting with a
    team-wide read-write credential, create and revoke keys; members and viewers list their own."""
    if not _manages_keys(principal):
        raise Forbidden(KEY_RULE + " Use an owner's or admin's team-wide read-write credential.")


def _key_dict(key: ApiKey, project_slugs: dict[int, str]) -> results_team.ApiKey:
    return {
        "id": key.display_prefix,
        "name": key.name,
        "user": key.user.email,
        "project": project_slugs.get(key.project_id) if key.project_id is not None else None,
        "read_only": key.read_only,
        "created_at": rfc3339(key.created_at),
        "expires_at": rfc3339(key.expires_at),
        "last_used_at": rfc3339(key.last_used_at),
        "revoked_at": rfc3339(key.revoked_at),
    }


def _slugs(team_id: int, project_ids: set[int | None]) -> dict[int, str]:
    ids = {i for i in project_ids if i is not None}
    return dict(Project.objects.filter(team_id=team_id, pk__in=ids).values_list("pk", "slug")) if ids else {}


@registry.write
def create_api_key(
    principal: Principal,
    name: str,
    project: str | None = None,
    read_only: bool | None = False,
    expires_at: str | None = None,
    idempotency_key: str | None = None,
) -> results_team.ApiKeyCreated:
    """A key acting for the caller, team-wide or for one project; the raw key is in this response
    only and is never stored. Owners and admins only (see _require_key_manager), within the plan's
    key cap. The name is screened as sent and as stored."""
    _require_key_manager(principal)
    clean_name = validation.text(name, "name", limit=inputs.API_KEY_NAME.max_length, required=True)
    target = project_for(principal, project) if project is not None else None
    expiry = validation.timestamp(expires_at, "expires_at") if expires_at is not None else None
    if expiry is not None and expiry <= timezone.now():
        raise InvalidArgument("`expires_at` must be in the future, e.g. '2030-01-31T00:00:00Z'.")
    clean_read_only = validation.flag(read_only, "read_only")
    guard.stored(principal, {"name": clean_name})

    def work() -> results_team.ApiKeyCreated:
        key, raw = billing_actions.issue_api_key(
            Team.objects.get(pk=principal.team_id),
            User.objects.get(pk=principal.user_id),
            project_id=target.pk if target is not None else None,
            name=clean_name,
            read_only=clean_read_only,
            expires_at=expiry,
            actor=principal,
        )
        return {"api_key": _key_dict(key, _slugs(principal.team_id, {key.project_id})), "key": raw}

    # A retry replays the secret `key` too: the caller whose answer was lost holds a key it cannot use
    # otherwise, and only that caller can replay it (records belong to one credential of one user, and
    # the request must match). It is kept sealed under SECRET_KEY, never in the clear, and only for
    # memory.idempotency.SEALED_REPLAY_WINDOW; a later retry is told to revoke the key and make another.
    return idempotency.run_once(
        principal,
        "create_api_key",
        idempotency_key,
        work,
        project=None,
        request={
            "name": clean_name,
            "project": target.public_id if target is not None else None,
            "read_only": clean_read_only,
            "expires_at": expiry,
        },
        sealed=("key",),
    )


@registry.read
def list_api_keys(principal: Principal, include_expired: bool = False) -> results_team.ApiKeyList:
    """Keys of the team that are not revoked, newest first: all of them for an owner's or admin's
    team-wide credential, the caller's own keys for everyone else (members and viewers).

    `include_expired` keeps expired keys in the list (the web page marks them)."""
    keys_query = ApiKey.objects.filter(team_id=principal.team_id, revoked_at__isnull=True)
    if not _manages_keys(principal):
        keys_query = keys_query.filter(user_id=principal.user_id)
    if not validation.flag(include_expired, "include_expired"):
        keys_query = keys_query.usable()
    keys = list(keys_query.select_related("user").order_by("-created_at", "-pk"))
    slugs = _slugs(principal.team_id, {key.project_id for key in keys})
    return {"api_keys": [_key_dict(key, slugs) for key in keys]}


@registry.write
def revoke_api_key(principal: Principal, key_id: str) -> results_team.ApiKeyRevoked:
    """Revoke a key of the team (owners and admins only, see _require_key_manager); revoking a revoked
    key changes nothing. `key_id` is the key's id as listed (kb_ and its lookup)."""
    _require_key_manager(principal)
    raw_id = validation.text(key_id, "key_id", limit=inputs.API_KEY_ID.max_length, required=True)
    lookup = raw_id.removeprefix(API_KEY_PREFIX)
    key = ApiKey.objects.filter(team_id=principal.team_id, lookup=lookup).select_related("user").first()
    if key is None or not raw_id.startswith(API_KEY_PREFIX):
        raise NotFound(f"No API key {echo(raw_id)} in this team. List the keys to see their ids.")
    if key.revoked_at is None:
        accounts_actions.revoke_api_key(key, actor=principal)
    return {"status": "revoked", "api_key": _key_dict(key, _slugs(principal.team_id, {key.project_id}))}
