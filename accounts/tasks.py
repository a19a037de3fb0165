"""Background writes of accounts: audit rows that a read operation must not write itself."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from accounts.models import AuditEvent


@shared_task(acks_late=True)
def write_audit_event(row: dict[str, Any]) -> str:
    return AuditEvent.objects.create(**row).public_id
