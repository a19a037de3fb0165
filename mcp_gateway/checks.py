"""System check: every MCP tool is classified, and agrees with the store function of the same name."""

from __future__ import annotations

import inspect
from typing import Any

from django.core import checks

from mcp_gateway import tools
from mcp_gateway.tooling import TOOLS
from memory import store


@checks.register()
def tools_are_classified(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    errors: list[checks.CheckMessage] = []
    for name, member in inspect.getmembers(tools, inspect.iscoroutinefunction):
        if member.__module__ == tools.__name__ and name not in TOOLS:
            errors.append(
                checks.Error(
                    f"mcp_gateway.tools.{name} is not a registered tool with a read/write classification.",
                    hint="Decorate it with @tool('read') or @tool('write').",
                    id="mcp_gateway.E001",
                )
            )
    for name, spec in TOOLS.items():
        store_kind = getattr(getattr(store, name, None), "store_kind", None)
        if store_kind is not None and store_kind != spec.kind:
            errors.append(
                checks.Error(
                    f"MCP tool {name} is classified {spec.kind} but memory.store.{name} is {store_kind}.",
                    id="mcp_gateway.E002",
                )
            )
    return errors
