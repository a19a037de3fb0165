"""Enqueue background work by task name.

Domain modules schedule work here instead of importing the task that runs it: a task imports the
modules it drives (the store, the transfer jobs), so a module that imported its own task back would
close an import loop. It sits in the lowest app so every app schedules the same way. Each app's
`ready()` imports its tasks module, so a name always resolves, with a broker or eagerly in-process.
"""

from __future__ import annotations

from typing import Any

from celery import current_app


def enqueue(task_name: str, *args: Any, countdown: float | None = None) -> None:
    """Send `task_name(*args)` to the queue (or run it in-process when there is no broker). Raises
    what the broker raises; callers that must not fail a write catch and log it."""
    current_app.signature(task_name, args=args).apply_async(countdown=countdown)
