from __future__ import annotations

import pytest

from accounts.errors import Forbidden
from memory import registry, store
from memory.checks import store_functions_are_classified


def test_every_store_function_is_classified():
    assert store_functions_are_classified() == []
    assert registry.STORE_FUNCTIONS["list_projects"] == "read"
    assert registry.STORE_FUNCTIONS["create_project"] == "write"


def test_an_unclassified_store_function_fails_the_system_check(monkeypatch):
    def sneaky_write(principal, title):  # pragma: no cover - never called
        raise AssertionError

    sneaky_write.__module__ = store.__name__
    monkeypatch.setattr(store, "sneaky_write", sneaky_write, raising=False)
    errors = store_functions_are_classified()
    assert [e.id for e in errors] == ["memory.E001"]
    assert "sneaky_write" in errors[0].msg


def test_write_wrapper_refuses_read_only_principals_before_running(cast):
    calls = []

    @registry.write
    def probe(principal):
        calls.append(principal)
        return {}

    with pytest.raises(Forbidden):
        probe(cast.principal(cast.viewer))
    with pytest.raises(Forbidden):
        probe(cast.principal(cast.member, read_only=True))
    probe(cast.principal(cast.member))
    assert len(calls) == 1
    registry.STORE_FUNCTIONS.pop("probe")
