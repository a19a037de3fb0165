"""Background work of accounts: audit rows that a read operation must not write itself, and the
periodic clean-up of OAuth registrations nobody used."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from accounts import oauth
from accounts.models import AuditEvent


@shared_task(acks_late=True)
def write_audit_event(row: dict[str, Any]) -> str:
    return AuditEvent.objects.create(**row).public_id


@shared_task(acks_late=True)
def delete_unused_oauth_registrations() -> int:
    """Scheduled hourly (CELERY_BEAT_SCHEDULE); deletes registrations a day old that never got a token."""
    return oauth.delete_unused_registrations()
