"""Store refusals on web pages: a foreign id is a 404 and a forbidden write a 403, exactly as the store
says; every other refusal (invalid input, screening, plan caps) is the page's to show in its form."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404

from accounts.errors import Forbidden, NotFound, StoreError


def raise_for_access(error: StoreError) -> None:
    if isinstance(error, NotFound):
        raise Http404(error.message)
    if isinstance(error, Forbidden):
        raise PermissionDenied(error.message)
