"""Tool results: structuredContent plus the same object as JSON text; errors in-band with isError."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from typing import Any

from asgiref.sync import sync_to_async
from django.db import close_old_connections
from mcp.types import CallToolResult, TextContent

from edge.outage import unavailable
from memory.store import StoreError

log = logging.getLogger(__name__)


def ok(payload: Mapping[str, Any]) -> CallToolResult:
    """A store result (a memory.shapes.results shape) as structured content and the same JSON as text."""
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=dict(payload))


def error(code: str, message: str, **details: Any) -> CallToolResult:
    payload = {"error": {"code": code, "message": message, **details}}
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structured_content=payload, is_error=True
    )


def _run_in_thread(fn: Callable[..., Mapping[str, Any]], *args: Any, **kwargs: Any) -> Mapping[str, Any]:
    # Tools run in worker threads whose connections Django's request cycle never closes.
    close_old_connections()
    try:
        return fn(*args, **kwargs)
    finally:
        close_old_connections()


async def call_store(fn: Callable[..., Mapping[str, Any]], *args: Any, **kwargs: Any) -> CallToolResult:
    """Run a store function off the event loop and turn its result or StoreError into a tool result."""
    try:
        payload = await sync_to_async(_run_in_thread, thread_sensitive=False)(fn, *args, **kwargs)
    except StoreError as exc:
        return error(exc.code, exc.message, **exc.details)
    except Exception as exc:
        outage = unavailable(exc)
        if outage is not None:
            return error(outage.code, outage.message, **outage.details)
        log.exception("tool call failed in %s", getattr(fn, "__name__", fn))
        return error("internal", "The server failed to complete this call; nothing was changed. Retry later.")
    return ok(payload)
