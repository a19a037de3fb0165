"""Audit rows: who did what, where and through which client. Callers pass ids and names, never text."""

from __future__ import annotations

from typing import Any

from accounts import scheduling
from accounts.models import AuditEvent
from accounts.principal import Principal


def record(
    principal: Principal | None,
    action: str,
    *,
    team_id: int | None = None,
    project_id: int | None = None,
    project_slug: str = "",
    object_id: str = "",
    actor_id: int | None = None,
    **detail: Any,
) -> AuditEvent:
    """Write one audit row. `principal` None means a system action (a command, a webhook)."""
    return AuditEvent.objects.create(
        **_row(principal, action, team_id, project_id, project_slug, object_id, actor_id, detail)
    )


def record_after_read(
    principal: Principal,
    action: str,
    *,
    project_id: int | None = None,
    project_slug: str = "",
    object_id: str = "",
    **detail: Any,
) -> None:
    """Audit a read that is a security event (an export) without a write statement in the read:
    the row is written by the task queue (in-process only where there is no queue)."""
    row = _row(principal, action, None, project_id, project_slug, object_id, None, detail)
    scheduling.enqueue("accounts.tasks.write_audit_event", row)


def _row(
    principal: Principal | None,
    action: str,
    team_id: int | None,
    project_id: int | None,
    project_slug: str,
    object_id: str,
    actor_id: int | None,
    detail: dict[str, Any],
) -> dict[str, Any]:
    return {
        # An account principal (accounts.principal.principal_for_account) has no team, and before
        # sign-up no user: those ids are 0 and are not written.
        "team_id": team_id if team_id is not None else (principal.team_id or None if principal else None),
        "project_id": project_id,
        "project_slug": project_slug,
        "actor_id": (principal.user_id or actor_id) if principal else actor_id,
        "client": principal.client_name if principal else "system",
        "auth_method": str(principal.auth_method) if principal else "system",
        "action": action,
        "object_id": object_id,
        "detail": detail,
    }
