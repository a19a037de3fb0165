"""A database outage during a tool call, or while the credential is checked, is an in-band
`unavailable` result with when to retry: never an HTTP 500, never a protocol error."""

from __future__ import annotations

from typing import Any

from django.db import OperationalError

from edge.errors import UNAVAILABLE_RETRY_AFTER
from mcp_gateway import auth
from memory import store


def _down(*args: Any, **kwargs: Any) -> Any:
    raise OperationalError("connection to server at 127.0.0.1 failed: Connection refused")


def test_a_tool_meeting_an_outage_answers_unavailable_in_band(local_mcp, cast, monkeypatch):
    key = cast.key(cast.member)
    monkeypatch.setattr(store, "remember", _down)
    error = local_mcp.error(key, "remember", {"project": "payments", "content": "Refunds settle in 3 days."})
    assert error["code"] == "unavailable"
    assert error["retry_after"] == UNAVAILABLE_RETRY_AFTER
    assert "Connection refused" not in error["message"]  # the server's words stay in the log


def test_an_outage_while_the_credential_is_checked_answers_unavailable_and_runs_nothing(
    mcp, cast, monkeypatch
):
    key = cast.key(cast.member)
    ran: list[str] = []
    monkeypatch.setattr(auth, "bearer_principal", _down)
    monkeypatch.setattr(store, "remember", lambda *args, **kwargs: ran.append("remember"))
    error = mcp.error(key, "remember", {"project": "payments", "content": "Refunds settle in 3 days."})
    assert error["code"] == "unavailable"
    assert error["retry_after"] == UNAVAILABLE_RETRY_AFTER
    assert ran == []  # no credential was verified, so nothing ran for it
    # Any bearer string gets the same answer (it cannot be checked), and nothing else.
    assert mcp.error("kb_not_a_key", "list_projects")["code"] == "unavailable"
