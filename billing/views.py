"""The Stripe webhook endpoint: verify, store once, acknowledge, and leave the work to a task."""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from billing import webhooks
from billing.tasks import process_stripe_event


@csrf_exempt  # Stripe signs the body instead; it has no session or CSRF token.
@require_POST
def stripe_webhook(request: HttpRequest) -> JsonResponse:
    try:
        event, apply = webhooks.receive(request.body, request.headers.get("Stripe-Signature"))
    except webhooks.BadEvent as exc:
        return JsonResponse({"error": str(exc)}, status=400)
    if not apply:
        # Stripe delivers at least once; a settled event is acknowledged so it stops retrying.
        return JsonResponse({"status": "duplicate", "event": event.event_id})
    transaction.on_commit(partial(process_stripe_event.delay, event.pk))
    return JsonResponse({"status": "received", "event": event.event_id})
