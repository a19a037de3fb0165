"""The tool registry: each MCP tool is declared once with its read/write kind and annotations."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from mcp.types import CallToolResult, ToolAnnotations

ToolFn = Callable[..., Awaitable[CallToolResult]]


@dataclass(frozen=True)
class ToolSpec:
    name: str
    kind: Literal["read", "write"]
    fn: ToolFn
    description: str
    core: bool
    destructive: bool
    idempotent: bool

    @property
    def annotations(self) -> ToolAnnotations:
        if self.kind == "read":
            return ToolAnnotations(read_only_hint=True)
        # idempotentHint is false unless said (MCP's default): only a true one is worth its tokens.
        return ToolAnnotations(
            read_only_hint=False, destructive_hint=self.destructive, idempotent_hint=self.idempotent or None
        )


TOOLS: dict[str, ToolSpec] = {}


def tool(
    kind: Literal["read", "write"], *, core: bool = False, destructive: bool = False, idempotent: bool = False
) -> Callable[[ToolFn], ToolFn]:
    """Register an MCP tool; its docstring is the description the agent reads."""

    def decorator(fn: ToolFn) -> ToolFn:
        description = inspect.cleandoc(fn.__doc__ or "")
        if not description:
            raise ValueError(f"tool {fn.__name__} needs a docstring: it is the agent's instructions")
        TOOLS[fn.__name__] = ToolSpec(fn.__name__, kind, fn, description, core, destructive, idempotent)
        return fn

    return decorator


def tool_param_names(fn: Any) -> set[str]:
    return set(inspect.signature(fn).parameters)
