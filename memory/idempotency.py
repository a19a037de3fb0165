"""Idempotent writes: a retry with the same key returns the first call's stored result.

The record is inserted *before* the work, so a concurrent retry blocks on the unique index until the
first transaction commits, then reads its result instead of writing a second time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction

from accounts.errors import InvalidArgument
from accounts.principal import Principal
from memory.models import IdempotencyRecord

MAX_KEY = 200


def run_once(
    principal: Principal, operation: str, key: Any, work: Callable[[], dict[str, Any]]
) -> dict[str, Any]:
    """Run `work` unless this principal already ran `operation` with `key`; call inside a transaction."""
    if key is None:
        return work()
    if not isinstance(key, str) or not key.strip() or len(key) > MAX_KEY:
        raise InvalidArgument(
            f"`idempotency_key` must be a non-empty string of at most {MAX_KEY} characters."
        )
    try:
        with transaction.atomic():
            record = IdempotencyRecord.objects.create(
                team_id=principal.team_id,
                user_id=principal.user_id,
                operation=operation,
                key=key,
                response={},
            )
    except IntegrityError:
        stored = IdempotencyRecord.objects.get(
            team_id=principal.team_id, user_id=principal.user_id, operation=operation, key=key
        )
        return dict(stored.response)
    result = work()
    record.response = result
    record.save(update_fields=["response"])
    return result
