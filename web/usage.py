"""Usage against the plan's caps as rows of bars, for the billing page and the team usage page
(templates/billing/_usage_table.html draws them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

USAGE_CAPS = ("projects", "notes", "members", "api_keys")
CAP_LABELS = {
    "projects": "Projects",
    "notes": "Notes",
    "revisions_per_note": "Revisions kept per note",
    "members": "Members",
    "api_keys": "API keys",
    "semantic_search": "Semantic search",
    "requests_per_minute": "Requests per minute",
    "default_context_budget": "Default context budget (tokens)",
}


def usage_rows(usage: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One row a capped resource of store.get_usage's answer: used, limit, and how full."""
    rows = []
    for cap in USAGE_CAPS:
        used, limit = int(usage["usage"][cap]), int(usage["caps"][cap])
        rows.append(
            {
                "cap": cap,
                "label": CAP_LABELS[cap],
                "used": used,
                "limit": limit,
                "percent": 100 if limit == 0 else min(100, round(100 * used / limit)),
                "full": used >= limit,
                "over": used > limit,
            }
        )
    return rows
