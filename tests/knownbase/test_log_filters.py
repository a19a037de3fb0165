"""A 403 is logged as one line; other errors keep their traceback."""

from __future__ import annotations

import logging
import sys

from django.core.exceptions import PermissionDenied

from knownbase.log_filters import RefusalsWithoutTraceback


def _record(error: Exception) -> logging.LogRecord:
    try:
        raise error
    except Exception:
        return logging.LogRecord(
            "django.request", logging.WARNING, __file__, 1, "Forbidden", None, sys.exc_info()
        )


def test_a_refusal_keeps_its_line_and_loses_its_traceback():
    refused = _record(PermissionDenied("viewers read only"))
    assert RefusalsWithoutTraceback().filter(refused) is True and refused.exc_info is None
    failed = _record(RuntimeError("a real fault"))
    assert RefusalsWithoutTraceback().filter(failed) is True and failed.exc_info is not None


def test_the_filter_is_on_django_request():
    logger = logging.getLogger("django.request")
    assert any(isinstance(f, RefusalsWithoutTraceback) for f in logger.filters)
