"""Every store function is classified read or write here; the write wrapper enforces write access.

A store function that is not registered, or an MCP tool without a classification, fails Django's
system checks (memory/checks.py), so the server refuses to start with an unclassified entry point.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, Literal, ParamSpec, TypeVar

from django.db import transaction

from accounts.errors import READ_ONLY_MESSAGE, Forbidden, InvalidArgument
from accounts.principal import Principal
from memory import screening

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


def write(fn: Callable[P, R] | None = None, *, unscreened: tuple[str, ...] = ()) -> Any:
    """A write: refused for read-only callers, screened, run in one transaction.

    `unscreened` names arguments the gate skips; only the allow-list value of a screening rule uses it.
    """

    def decorate(inner: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(inner)

        @functools.wraps(inner)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            principal = args[0] if args else None
            if not isinstance(principal, Principal):
                raise TypeError(f"{inner.__name__} takes a Principal as its first argument")
            if not principal.can_write:
                raise Forbidden(READ_ONLY_MESSAGE)
            try:
                bound = signature.bind(*args, **kwargs).arguments
            except TypeError as exc:
                raise InvalidArgument(f"{inner.__name__}: {exc}") from None
            screened = {k: v for k, v in bound.items() if k != "principal" and k not in unscreened}
            screening.enforce(principal, inner.__name__, screened)
            with transaction.atomic():
                return inner(*args, **kwargs)

        _register(wrapper, "write")
        return wrapper

    return decorate(fn) if fn is not None else decorate
