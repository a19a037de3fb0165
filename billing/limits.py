"""Limits of what billing stores; memory.inputs re-exports them with every other limit."""

from __future__ import annotations

from accounts.limits import TextInput

PLAN_CODE = TextInput(30)
PLAN_NAME = TextInput(60)
STRIPE_PRICE_ID = TextInput(100)
# Stripe documents no length for its object ids; 255 is the widest a column usually gets.
STRIPE_ID = TextInput(255)
STRIPE_EVENT_TYPE = TextInput(100)
STRIPE_EVENT_OUTCOME = TextInput(200)
# The failure a handler raised, as recorded with the event.
STRIPE_EVENT_ERROR = TextInput(2_000)
# A Checkout Session's page URL as Stripe returns it (several hundred characters with its fragment).
CHECKOUT_URL = TextInput(2_000)
