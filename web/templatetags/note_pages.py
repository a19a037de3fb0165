"""Template filters of the note pages."""

from __future__ import annotations

from datetime import datetime

from django import template

register = template.Library()


@register.filter
def utc(value: str | None) -> str:
    """An RFC 3339 time from the store (`2026-01-31T09:00:00.123Z`) as `2026-01-31 09:00 UTC`."""
    if not value:
        return ""
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return value
    return moment.strftime("%Y-%m-%d %H:%M UTC")
