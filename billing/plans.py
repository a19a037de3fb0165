"""The plan catalogue. The seed migration writes it; staff edit plans in the admin afterwards."""

from __future__ import annotations

from typing import Any

PLAN_CATALOGUE: list[dict[str, Any]] = [
    {
        "code": "free",
        "name": "Free",
        "price_cents_monthly": 0,
        "max_projects": 3,
        "max_notes": 1000,
        "max_revisions_per_note": 10,
        "max_members": 2,
        "max_api_keys": 3,
        "semantic_search": True,
        "requests_per_minute": 120,
        "default_context_budget": 2000,
        "is_default": True,
        "sort_order": 0,
    },
    {
        "code": "developer",
        "name": "Developer",
        "price_cents_monthly": 900,
        "max_projects": 20,
        "max_notes": 20000,
        "max_revisions_per_note": 50,
        "max_members": 3,
        "max_api_keys": 20,
        "semantic_search": True,
        "requests_per_minute": 600,
        "default_context_budget": 3000,
        "is_default": False,
        "sort_order": 1,
    },
    {
        "code": "pro",
        "name": "Pro",
        "price_cents_monthly": 2900,
        "max_projects": 100,
        "max_notes": 200000,
        "max_revisions_per_note": 200,
        "max_members": 10,
        "max_api_keys": 100,
        "semantic_search": True,
        "requests_per_minute": 1800,
        "default_context_budget": 4000,
        "is_default": False,
        "sort_order": 2,
    },
    {
        "code": "team",
        "name": "Team",
        "price_cents_monthly": 9900,
        "max_projects": 1000,
        "max_notes": 2000000,
        "max_revisions_per_note": 1000,
        "max_members": 100,
        "max_api_keys": 1000,
        "semantic_search": True,
        "requests_per_minute": 6000,
        "default_context_budget": 6000,
        "is_default": False,
        "sort_order": 3,
    },
]


def ensure_catalogue(plan_model: Any) -> None:
    """Insert the catalogue's plans that are missing; plans staff have edited are left alone.

    Takes the model so the seed migration can pass its historical one."""
    for entry in PLAN_CATALOGUE:
        values = dict(entry)
        plan_model.objects.get_or_create(code=values.pop("code"), defaults=values)
