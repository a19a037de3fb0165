"""The row guard: the names people give accounts-level rows are screened in the form they are
stored, whatever path saves them (a store function, the Django admin, a management command).

The store's functions screen these values as sent and as stored already; inside their write the
gate skips a value it has seen, so this costs nothing there. It is the net for the paths that do
not go through the store: the admin's edit forms, DOT's client registration and its RFC 7592
update, the createsuperuser command. Connected to pre_save in memory/apps.py.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from oauth2_provider.models import Application

from accounts.models import ApiKey, Invitation, Team, User
from accounts.principal import principal_for_account
from memory.screening import guard

# The free-text fields of each guarded model (tests/safety/test_model_fields.py lists every field).
GUARDED: dict[type[models.Model], tuple[str, ...]] = {
    User: ("email", "name"),
    Team: ("name", "slug"),
    ApiKey: ("name",),
    Invitation: ("email",),
    Application: ("name",),
}


def screen_stored_row(sender: type[models.Model], instance: models.Model, **kwargs: Any) -> None:
    """Refuse (Screened) to save a guarded row whose name holds a secret."""
    fields = GUARDED.get(sender, ())
    values = {name: getattr(instance, name) for name in fields if getattr(instance, name, "")}
    if values:
        guard.stored(principal_for_account(), values)
