"""Every store function is classified read or write here; the wrappers check what every call shares.

Both wrappers refuse a NUL character anywhere in the arguments (PostgreSQL can neither store nor
compare one). The write wrapper also enforces write access, screens the arguments as sent and runs
the write in one transaction inside the gate's write context, where the store screens each value
again in the form it will be stored (memory/screening/guard.py).

Staff principals (accounts.principal.principal_for_staff) may call only the functions registered
with their staff operation (`staff="moderate"`); every other store function refuses them.

A store function that is not registered, or an MCP tool without a classification, fails Django's
system checks (memory/checks.py), so the server refuses to start with an unclassified entry point.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, Literal, ParamSpec, TypeVar, overload

from django.db import transaction

from accounts.errors import Forbidden, InvalidArgument
from accounts.principal import Principal
from memory import validation
from memory.screening import guard

Kind = Literal["read", "write"]
P = ParamSpec("P")
R = TypeVar("R")

STORE_FUNCTIONS: dict[str, Kind] = {}


def _register(fn: Callable[..., Any], kind: Kind, staff: str | None) -> None:
    STORE_FUNCTIONS[fn.__name__] = kind
    fn.store_kind = kind  # type: ignore[attr-defined]
    fn.staff_operation = staff  # type: ignore[attr-defined]


def _refuse_staff(name: str, args: Any, staff: str | None) -> None:
    principal = args[0] if args else None
    staff_may = staff is not None and isinstance(principal, Principal) and principal.may_staff(staff)
    if isinstance(principal, Principal) and principal.is_staff and not staff_may:
        raise Forbidden(f"{name} is not open to staff: moderate through the conflict actions.")


def _arguments(signature: inspect.Signature, name: str, args: Any, kwargs: Any) -> dict[str, Any]:
    try:
        bound = signature.bind(*args, **kwargs).arguments
    except TypeError as exc:
        raise InvalidArgument(f"{name}: {exc}") from None
    arguments = {k: v for k, v in bound.items() if k != "principal"}
    validation.no_nul(arguments)
    return arguments


@overload
def read(fn: Callable[P, R], *, staff: str | None = None) -> Callable[P, R]: ...


@overload
def read(fn: None = None, *, staff: str | None = None) -> Callable[[Callable[P, R]], Callable[P, R]]: ...


def read(fn: Callable[P, R] | None = None, *, staff: str | None = None) -> Any:
    """A read. `staff` names the staff operation that opens it to staff principals."""

    def decorate(inner: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(inner)

        @functools.wraps(inner)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            _refuse_staff(inner.__name__, args, staff)
            _arguments(signature, inner.__name__, args, kwargs)
            return inner(*args, **kwargs)

        _register(wrapper, "read", staff)
        return wrapper

    return decorate(fn) if fn is not None else decorate


def write(
    fn: Callable[P, R] | None = None, *, unscreened: tuple[str, ...] = (), staff: str | None = None
) -> Any:
    """A write: refused for read-only callers, screened, run in one transaction.

    `unscreened` names arguments the gate skips; only the allow-list value of a screening rule uses it.
    `staff` names the staff operation that opens it to staff principals.
    """

    def decorate(inner: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(inner)

        @functools.wraps(inner)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            principal = args[0] if args else None
            if not isinstance(principal, Principal):
                raise TypeError(f"{inner.__name__} takes a Principal as its first argument")
            _refuse_staff(inner.__name__, args, staff)
            if not principal.can_write:
                raise principal.write_refusal()
            arguments = _arguments(signature, inner.__name__, args, kwargs)
            screened = {k: v for k, v in arguments.items() if k not in unscreened}
            with guard.writing(principal, inner.__name__, screened), transaction.atomic():
                return inner(*args, **kwargs)

        _register(wrapper, "write", staff)
        return wrapper

    return decorate(fn) if fn is not None else decorate
