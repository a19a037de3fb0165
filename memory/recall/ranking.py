"""The one scoring function for context and search, with every weight in one place.

score = Σ weight × signal, each signal in [0, 1]:
- relevance: how well the note matches the query (0 without a query)
- recency: hyperbolic decay 1 / (1 + age / RECENCY_HALF_LIFE) — old decisions count for less, never nothing
- importance: the note's own 0..1
- type: how much the type matters for orienting an agent (constraints most)
- status: current ranks first, superseded / historical last
- links: inbound links, 1 - 1 / (1 + n)
- access: reinforcement by reads, log-scaled up to ACCESS_SATURATION
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

WEIGHTS = {
    "relevance": 0.40,
    "recency": 0.15,
    "importance": 0.15,
    "type": 0.10,
    "status": 0.10,
    "links": 0.05,
    "access": 0.05,
}
RECENCY_HALF_LIFE = timedelta(days=30)
ACCESS_SATURATION = 50

TYPE_WEIGHT = {
    "constraint": 1.0,
    "decision": 0.9,
    "architecture": 0.85,
    "failed_approach": 0.8,
    "status": 0.7,
    "handoff": 0.7,
    "incident": 0.6,
    "task": 0.6,
    "procedure": 0.6,
    "preference": 0.6,
    "fact": 0.5,
    "reference": 0.4,
    "note": 0.3,
}
STATUS_WEIGHT = {"current": 1.0, "disputed": 0.8, "pending": 0.6, "superseded": 0.0, "historical": 0.0}
# Superseded and historical notes must rank after every live note whatever their other signals.
RETIRED_STATUSES = frozenset({"superseded", "historical"})
RETIRED_PENALTY = 1.0
# Files the caller is working on (get_context / search_notes `paths`): a note bound to one of them
# gains PATH_BONUS, a note bound only to other code loses PATH_PENALTY, an unbound note neither. Added
# outside the weighted sum, so without `paths` every score is what it was.
PATH_BONUS = 0.3
PATH_PENALTY = 0.15


@dataclass(frozen=True)
class Signals:
    relevance: float
    updated_at: datetime
    importance: float
    type: str
    status: str
    inbound_links: int
    access_count: int


def recency(updated_at: datetime, now: datetime) -> float:
    age = max(timedelta(0), now - updated_at)
    return 1.0 / (1.0 + age / RECENCY_HALF_LIFE)


def score(signals: Signals, now: datetime) -> float:
    value = (
        WEIGHTS["relevance"] * max(0.0, min(1.0, signals.relevance))
        + WEIGHTS["recency"] * recency(signals.updated_at, now)
        + WEIGHTS["importance"] * max(0.0, min(1.0, signals.importance))
        + WEIGHTS["type"] * TYPE_WEIGHT.get(signals.type, 0.3)
        + WEIGHTS["status"] * STATUS_WEIGHT.get(signals.status, 0.5)
        + WEIGHTS["links"] * (1.0 - 1.0 / (1.0 + max(0, signals.inbound_links)))
        + WEIGHTS["access"]
        * min(1.0, math.log1p(max(0, signals.access_count)) / math.log1p(ACCESS_SATURATION))
    )
    if signals.status in RETIRED_STATUSES:
        value -= RETIRED_PENALTY
    return round(value, 4)


def note_signals(note: Any, relevance: float, inbound_links: int) -> Signals:
    """The signals of a Note row (typed loosely: ranking does not import the models)."""
    return Signals(
        relevance=relevance,
        updated_at=note.updated_at,
        importance=note.importance,
        type=note.type,
        status=note.status,
        inbound_links=inbound_links,
        access_count=note.access_count,
    )


def path_adjustment(affinity: int) -> float:
    """The score change for memory.notes.paths.affinity: 1 bound here, -1 bound elsewhere, 0 unbound."""
    if affinity > 0:
        return PATH_BONUS
    if affinity < 0:
        return -PATH_PENALTY
    return 0.0
