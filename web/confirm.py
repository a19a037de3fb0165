"""Destructive actions ask first. With script, a native <dialog> asks and the form posts with
`confirmed=yes` (web/static/web/app.js); without script the same POST lands on a confirmation page
that posts again with it, so nothing destructive happens on a single unconfirmed request."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from web.pages import page

CONFIRMED = "confirmed"


def confirmed(request: HttpRequest) -> bool:
    return request.POST.get(CONFIRMED) == "yes"


def confirmation_page(
    request: HttpRequest,
    *,
    question: str,
    detail: str,
    verb: str,
    cancel_url: str,
    fields: dict[str, str] | None = None,
) -> HttpResponse:
    return page(
        request,
        "web/components/confirm_page.html",
        {
            "question": question,
            "detail": detail,
            "verb": verb,
            "action": request.path,
            "cancel_url": cancel_url,
            "fields": sorted((fields or {}).items()),
        },
    )
