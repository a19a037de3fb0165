"""Background work of billing: applying stored Stripe events."""

from __future__ import annotations

import stripe
from celery import shared_task

from billing import webhooks


@shared_task(
    acks_late=True,
    # Stripe unreachable or throttling: the event stays failed on its row and is tried again later.
    autoretry_for=(stripe.APIConnectionError, stripe.RateLimitError),
    retry_backoff=30,
    retry_backoff_max=900,
    max_retries=6,
)
def process_stripe_event(event_pk: int) -> str:
    return webhooks.process(event_pk)
