"""Wiring of the gate into the store boundary: team rules, the refusal, its audit row, fail-closed."""

from __future__ import annotations

import logging
import re
from typing import Any

from django.db import transaction

from accounts.errors import Screened
from accounts.principal import Principal
from memory.screening.gate import Finding, TeamRules, screen
from memory.screening.patterns import Family

log = logging.getLogger(__name__)


def team_rules(team_id: int) -> TeamRules:
    from memory.models import ScreeningRule

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


def enforce(principal: Principal, operation: str, arguments: dict[str, Any]) -> None:
    """Refuse the write (Screened) when `arguments` hold a secret; audit the refusal without the text."""
    try:
        finding = screen(arguments, team_rules(principal.team_id))
    except Exception:
        log.exception("screening failed for %s; refusing the write", operation)
        finding = Finding(
            path="arguments", family="screening_error", label="content the gate could not check"
        )
    if finding is None:
        return
    _audit_refusal(principal, operation, finding)
    raise Screened(
        f"Refused: `{finding.path}` looks like {finding.label} ({finding.family}). Nothing was stored. "
        "Remove the secret or personal data and store where it lives instead "
        "(e.g. 'the Stripe live key is in the team vault under payments/stripe').",
        field=finding.path,
        family=finding.family,
    )


def _audit_refusal(principal: Principal, operation: str, finding: Finding) -> None:
    from accounts import audit

    try:
        with transaction.atomic():
            audit.record(
                principal, "write.screened", tool=operation, field=finding.path, family=finding.family
            )
    except Exception:
        log.exception("could not audit a screening refusal of %s", operation)
