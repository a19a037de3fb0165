"""The time billing judges subscriptions by (grace periods, period ends).

One function so tests can freeze or move it for the whole process, including the live server's
threads, without touching the clock that stamps notes and audit rows."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone


def now() -> datetime:
    return timezone.now()
