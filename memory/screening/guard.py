"""Wiring of the gate into the store boundary: team rules, the refusal, its audit row, fail-closed.

A write is screened twice. Its arguments as sent, by `writing` in the write wrapper before any work;
then every value the store is about to write, in the form it will be stored (`stored`, called by the
row writers after every normalisation: lower-cased and hyphenated tags, derived titles and slugs,
patched and merged bodies, the checkpoint's handoff). A value may be harmless as sent and a secret
once normalised ("219 09 9999" becomes the tag 219-09-9999), so the second screening is the one that
guarantees nothing refused in a body reaches storage in another field.

A refusal raised inside the write's transaction is audited after the rollback, by the outermost
`writing`: audited inside, the audit row would be rolled back with the write.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from accounts import audit
from accounts.errors import Screened, StoreError
from accounts.principal import Principal
from memory import validation
from memory.models import ScreeningRule
from memory.screening.family import Family
from memory.screening.gate import Finding, TeamRules, screen, walk

log = logging.getLogger(__name__)

_ADVICE = (
    "Nothing was stored. Remove the secret or personal data and store where it lives instead "
    "(e.g. 'the Stripe live key is in the team vault under payments/stripe')."
)


@dataclass
class _Write:
    """The write in progress: its operation, the team's rules, the texts already screened, and the
    refusals raised inside its transaction, audited once the transaction has rolled back."""

    operation: str
    rules: TeamRules
    screened: frozenset[str]
    refused: list[tuple[Principal, str, Finding]] = field(default_factory=list)


_current: ContextVar[_Write | None] = ContextVar("knownbase_write", default=None)


def team_rules(team_id: int) -> TeamRules:
    patterns: list[Family] = []
    allowed: set[str] = set()
    for rule in ScreeningRule.objects.filter(team_id=team_id):
        if rule.kind == ScreeningRule.Kind.ALLOW:
            allowed.add(rule.value)
        else:
            patterns.append(
                Family(
                    f"custom:{rule.name}",
                    f"the team's pattern {rule.name!r}",
                    re.compile(rule.value, re.IGNORECASE),
                )
            )
    return TeamRules(patterns=tuple(patterns), allowed=frozenset(allowed))


def _find(operation: str, values: Mapping[str, Any], rules: TeamRules) -> Finding | None:
    try:
        return screen(dict(values), rules)
    except StoreError:
        raise  # a clear refusal of the input itself (more text than the gate reads): invalid_argument
    except Exception:
        log.exception("screening failed for %s; refusing the write", operation)
        return Finding(path="arguments", family="screening_error", label="content the gate could not check")


def _refusal(finding: Finding, *, stored: bool) -> Screened:
    where = f"`{finding.path}`, in the form it would be stored," if stored else f"`{finding.path}`"
    return Screened(
        f"Refused: {where} looks like {finding.label} ({finding.family}). {_ADVICE}",
        field=finding.path,
        family=finding.family,
    )


def _raise(principal: Principal, operation: str, finding: Finding, *, stored: bool) -> None:
    state = _current.get()
    if state is None:
        _audit_refusal(principal, operation, finding)
    else:
        state.refused.append((principal, operation, finding))
    raise _refusal(finding, stored=stored)


def enforce(principal: Principal, operation: str, arguments: dict[str, Any]) -> None:
    """Refuse the write (Screened) when `arguments` hold a secret; audit the refusal without the text."""
    state = _current.get()
    rules = state.rules if state is not None else team_rules(principal.team_id)
    finding = _find(operation, arguments, rules)
    if finding is not None:
        _raise(principal, operation, finding, stored=False)


@contextmanager
def writing(principal: Principal, operation: str, arguments: dict[str, Any]) -> Iterator[None]:
    """Screen a write's `arguments` as sent, then run its body as `operation`, so that `stored` can
    screen what the body is about to write. Wrap the write's transaction in this, not the reverse."""
    outer = _current.get()
    if outer is not None:
        # A write inside another write: one transaction, one context, audited by the outer one.
        enforce(principal, operation, arguments)
        yield
        return
    rules = team_rules(principal.team_id)
    finding = _find(operation, arguments, rules)
    if finding is not None:
        _raise(principal, operation, finding, stored=False)
    # Texts already screened as sent need no second look when they are stored unchanged.
    seen = frozenset(text for _, text in walk(arguments, ""))
    state = _Write(operation, rules, seen)
    token = _current.set(state)
    try:
        yield
    finally:
        _current.reset(token)
        for refused in state.refused:
            _audit_refusal(*refused)


def _text_values(values: Mapping[str, Any]) -> dict[str, Any]:
    """The text a row write stores: strings and lists of strings (not numbers, times, expressions)."""
    return {
        name: value
        for name, value in values.items()
        if isinstance(value, str)
        or (isinstance(value, list | tuple) and all(isinstance(item, str) for item in value))
    }


def stored(principal: Principal, values: Mapping[str, Any]) -> None:
    """Refuse the write when a value it is about to store holds a secret, judged in the form it will
    be stored. `values` maps stored field names (title, body, tags, slug, …) to their final values;
    call it after every normalisation and right before the row is written."""
    state = _current.get()
    if state is None:
        operation, rules, seen = "write", team_rules(principal.team_id), frozenset[str]()
    else:
        operation, rules, seen = state.operation, state.rules, state.screened
    texts: dict[str, Any] = {}
    for name, value in _text_values(values).items():
        if isinstance(value, str):
            if value not in seen:
                texts[name] = value
        elif any(item not in seen for item in value):
            texts[name] = list(value)
    if not texts:
        return
    # Values the caller did not send (the MCP client's name as `source`) can hold one too.
    validation.no_nul(texts)
    finding = _find(operation, texts, rules)
    if finding is not None:
        _raise(principal, operation, finding, stored=True)


def _audit_refusal(principal: Principal, operation: str, finding: Finding) -> None:
    try:
        with transaction.atomic():
            audit.record(
                principal, "write.screened", tool=operation, field=finding.path, family=finding.family
            )
    except Exception:
        log.exception("could not audit a screening refusal of %s", operation)
