"""Every store function is classified read or write here; the write wrapper enforces write access.

A store function that is not registered, or an MCP tool without a classification, fails Django's
system checks (memory/checks.py), so the server refuses to start with an unclassified entry point.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Literal, ParamSpec, TypeVar

from django.db import transaction

from accounts.principal import Principal
from memory.errors import READ_ONLY_MESSAGE, Forbidden

Kind = Literal["read", "write"]
P = ParamSpec("P")
R = TypeVar("R")

STORE_FUNCTIONS: dict[str, Kind] = {}


def _register(fn: Callable[..., Any], kind: Kind) -> None:
    STORE_FUNCTIONS[fn.__name__] = kind
    fn.store_kind = kind  # type: ignore[attr-defined]


def read(fn: Callable[P, R]) -> Callable[P, R]:
    _register(fn, "read")
    return fn


def write(fn: Callable[P, R]) -> Callable[P, R]:
    """A write: refused for read-only callers, run in one transaction."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        principal = args[0]
        if not isinstance(principal, Principal):
            raise TypeError(f"{fn.__name__} takes a Principal as its first argument")
        if not principal.can_write:
            raise Forbidden(READ_ONLY_MESSAGE)
        with transaction.atomic():
            return fn(*args, **kwargs)

    _register(wrapper, "write")
    return wrapper
