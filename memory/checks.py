"""System check: every public function of the store is classified read or write."""

from __future__ import annotations

import inspect
from typing import Any

from django.core import checks

from memory import store


@checks.register()
def store_functions_are_classified(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    errors: list[checks.CheckMessage] = []
    for name, member in inspect.getmembers(store, inspect.isfunction):
        in_store = member.__module__ == store.__name__ or member.__module__.startswith(store.__name__ + ".")
        if not in_store or not _takes_principal(member):
            continue
        if getattr(member, "store_kind", None) not in ("read", "write"):
            errors.append(
                checks.Error(
                    f"memory.store.{name} takes a Principal but is not classified read or write.",
                    hint="Decorate it with @registry.read or @registry.write.",
                    id="memory.E001",
                )
            )
    return errors


def _takes_principal(fn: Any) -> bool:
    params = list(inspect.signature(fn).parameters.values())
    return bool(params) and params[0].name == "principal" and not fn.__name__.startswith("_")
