"""Idempotent writes: a retry with the same key returns the first call's stored result.

A key is scoped to the caller (team and user), the operation and the project, and bound to a digest of
the validated request. A retry of the same request replays the stored answer; the same key with a
different request is refused, as in Stripe's API: replaying would answer a question that was not asked
and drop the write the caller meant.

The record is inserted *before* the work, so a concurrent retry blocks on the unique index until the
first transaction commits, then reads its result instead of writing a second time.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from typing import Any

from django.db import IntegrityError, transaction

from accounts.errors import InvalidArgument
from accounts.principal import Principal
from memory.models import IdempotencyRecord, Project

MAX_KEY = 200


def request_digest(request: Mapping[str, Any]) -> str:
    """SHA-256 of the request's canonical JSON: equal requests, equal digests, whatever the key order."""
    canonical = json.dumps(request, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def run_once(
    principal: Principal,
    operation: str,
    key: Any,
    work: Callable[[], dict[str, Any]],
    *,
    project: Project,
    request: Mapping[str, Any],
) -> dict[str, Any]:
    """Run `work` unless this principal already ran `operation` in `project` with `key`; call inside a
    transaction. `request` is the validated request, compared with the first one's."""
    if key is None:
        return work()
    if not isinstance(key, str) or not key.strip() or len(key) > MAX_KEY:
        raise InvalidArgument(
            f"`idempotency_key` must be a non-empty string of at most {MAX_KEY} characters."
        )
    digest = request_digest(request)
    scope = {
        "team_id": principal.team_id,
        "user_id": principal.user_id,
        "project": project,
        "operation": operation,
        "key": key,
    }
    try:
        with transaction.atomic():
            record = IdempotencyRecord.objects.create(**scope, request_hash=digest, response={})
    except IntegrityError:
        stored = IdempotencyRecord.objects.get(**scope)
        if stored.request_hash != digest:
            raise InvalidArgument(
                f"This `idempotency_key` was already used for a different request to {operation} in this "
                "project. Send a new key for a new request; reuse a key only to retry the same request "
                "with the same arguments."
            ) from None
        return dict(stored.response)
    result = work()
    record.response = result
    record.save(update_fields=["response"])
    return result
