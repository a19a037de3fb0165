"""Idempotent writes: a retry with the same key returns the first call's stored result.

A key is scoped to the caller (team, user and credential), the operation and the project (or the team,
for writes made before any project exists), and bound to a digest of the validated request. A retry of the same request replays the stored answer; the same key with a
different request is refused, as in Stripe's API: replaying would answer a question that was not asked
and drop the write the caller meant.

The record is inserted *before* the work, so a concurrent retry blocks on the unique index until the
first transaction commits, then reads its result instead of writing a second time.

A result may hold a secret the store never keeps in the clear (a new API key): those fields are
stored sealed (memory.sealing, under SECRET_KEY) and opened only for a replay within
SEALED_REPLAY_WINDOW, so a database copy holds no usable secret and an old retry gets none.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any, TypeVar, cast

from django.db import IntegrityError, transaction

from accounts.errors import InvalidArgument
from accounts.principal import Principal
from memory import inputs, sealing
from memory.models import IdempotencyRecord, Project

SEALED_PURPOSE = "idempotency.sealed-field"
# A retry whose answer was lost comes within minutes; a day is generous, and bounds how long a sealed
# secret can be opened again at all.
SEALED_REPLAY_WINDOW = timedelta(hours=24)

Result = TypeVar("Result", bound=Mapping[str, Any])


def request_digest(request: Mapping[str, Any]) -> str:
    """SHA-256 of the request's canonical JSON: equal requests, equal digests, whatever the key order."""
    canonical = json.dumps(request, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def run_once(
    principal: Principal,
    operation: str,
    key: Any,
    work: Callable[[], Result],
    *,
    project: Project | None,
    request: Mapping[str, Any],
    sealed: tuple[str, ...] = (),
) -> Result:
    """Run `work` unless this principal's credential already ran `operation` in `project` (None: in the
    team) with `key`; call inside a transaction. `request` is the validated request, compared with the
    first one's. `sealed` names top-level fields of the result that are secrets: kept sealed, not clear."""
    if key is None:
        return work()
    if not isinstance(key, str) or not key.strip() or len(key) > inputs.IDEMPOTENCY_KEY.max_length:
        raise InvalidArgument(
            f"`idempotency_key` must be a non-empty string of at most {inputs.IDEMPOTENCY_KEY.max_length} characters."
        )
    digest = request_digest(request)
    scope = {
        "team_id": principal.team_id,
        "user_id": principal.user_id,
        "credential": principal.credential_id,
        "project": project,
        "operation": operation,
        "key": key,
    }
    where = "in this project" if project is not None else "in this team"
    try:
        with transaction.atomic():
            record = IdempotencyRecord.objects.create(**scope, request_hash=digest, response={})
    except IntegrityError:
        stored = IdempotencyRecord.objects.get(**scope)
        if stored.request_hash != digest:
            raise InvalidArgument(
                f"This `idempotency_key` was already used for a different request to {operation} {where}. "
                "Send a new key for a new request; reuse a key only to retry the same request "
                "with the same arguments."
            ) from None
        # The stored answer is the JSON of the first call's result, of the same shape.
        return cast(Result, _opened(dict(stored.response), sealed, operation))
    result = work()
    record.response = _sealed(result, sealed)
    record.save(update_fields=["response"])
    return result


def _sealed(result: Mapping[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    return {
        name: sealing.seal({"value": value}, SEALED_PURPOSE) if name in fields else value
        for name, value in result.items()
    }


def _opened(stored: dict[str, Any], fields: tuple[str, ...], operation: str) -> dict[str, Any]:
    for name in fields:
        if name not in stored:
            continue
        try:
            stored[name] = sealing.unseal(stored[name], SEALED_PURPOSE, max_age=SEALED_REPLAY_WINDOW)["value"]
        except sealing.BadToken:  # expired, or sealed under a SECRET_KEY no longer configured
            raise InvalidArgument(
                f"This `idempotency_key` was used for {operation} more than "
                f"{int(SEALED_REPLAY_WINDOW.total_seconds() // 3600)} hours ago, or before a key rotation: "
                f"the secret `{name}` of that answer is no longer kept for a retry. The first request took "
                "effect; undo it if you cannot use it (e.g. revoke that key) and send a new request "
                "with a new key."
            ) from None
    return stored
