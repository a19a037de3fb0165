"""Logging filters named in settings.LOGGING."""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied


class RefusalsWithoutTraceback(logging.Filter):
    """Django logs every 403 with the PermissionDenied's traceback: an expected refusal (a viewer
    trying to write, a foreign project) is one line, not a stack that buries real errors."""

    def filter(self, record: logging.LogRecord) -> bool:
        if (
            record.exc_info
            and record.exc_info[0] is not None
            and issubclass(record.exc_info[0], PermissionDenied)
        ):
            record.exc_info = None
            record.exc_text = None
        return True
