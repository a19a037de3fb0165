"""A local Stripe for the real `stripe` library: an HTTPClient that answers Checkout, the customer
portal and subscription retrieval from objects shaped like Stripe's recorded responses (API version
2026-10-28), and builds the events Stripe would send about them. No network.

Tests drive it like Stripe's side of the world: `complete_checkout` is the buyer paying,
`set_subscription` is Stripe changing a subscription (a failed renewal, a cancellation)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import stripe

API_VERSION = "2026-10-28.endive"
WEBHOOK_SECRET = "whsec_test_knownbase_local"
PRICES = {"developer": "price_1Developer", "pro": "price_1Pro", "team": "price_1Team"}
MONTH = 30 * 24 * 3600
START = 1_893_456_000  # 2030-01-01T00:00:00Z: Stripe-side timestamps of the story


@dataclass
class Call:
    method: str
    path: str
    params: dict[str, str]


class FakeStripe(stripe.HTTPClient):
    name = "fake-stripe"

    def __init__(self, checkout_page: str = "https://checkout.stripe.com/c/pay/") -> None:
        super().__init__()
        self.calls: list[Call] = []
        self.sessions: dict[str, dict[str, Any]] = {}
        self.subscriptions: dict[str, dict[str, Any]] = {}
        # Where a Checkout Session sends the buyer; a browser test points it back at the site.
        self.checkout_page = checkout_page
        self.now = START
        self._ids = itertools.count(1)

    # The stripe.HTTPClient interface.
    def request(
        self,
        method: str,
        url: str,
        headers: Mapping[str, str] | None,
        post_data: Any = None,
        *,
        _usage: list[str] | None = None,
    ) -> tuple[str, int, Mapping[str, str]]:
        parts = urlsplit(url)
        raw = post_data.decode() if isinstance(post_data, bytes) else (post_data or parts.query)
        params = dict(parse_qsl(raw, keep_blank_values=True))
        self.calls.append(Call(method.upper(), parts.path, params))
        status, body = self._route(method.lower(), parts.path, params)
        return json.dumps(body), status, {"request-id": f"req_{next(self._ids)}"}

    def request_stream(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("the fake does not stream")

    def close(self) -> None:
        return None

    def _route(self, method: str, path: str, params: dict[str, str]) -> tuple[int, dict[str, Any]]:
        if (method, path) == ("post", "/v1/checkout/sessions"):
            return 200, self._create_session(params)
        if (method, path) == ("post", "/v1/billing_portal/sessions"):
            return 200, self._portal_session(params)
        if method == "get" and path.startswith("/v1/subscriptions/"):
            found = self.subscriptions.get(path.rsplit("/", 1)[1])
            if found is None:
                return 404, _error(f"No such subscription: '{path.rsplit('/', 1)[1]}'", "resource_missing")
            return 200, found
        return 404, _error(f"Unrecognized request URL ({method.upper()}: {path}).", None)

    def _id(self, prefix: str) -> str:
        return f"{prefix}_test{next(self._ids):06d}"

    def _create_session(self, params: dict[str, str]) -> dict[str, Any]:
        session_id = self._id("cs")
        session = {
            "id": session_id,
            "object": "checkout.session",
            "mode": params.get("mode"),
            "status": "open",
            "payment_status": "unpaid",
            "client_reference_id": params.get("client_reference_id"),
            "customer": params.get("customer"),
            "customer_email": params.get("customer_email"),
            "metadata": _nested(params, "metadata"),
            "subscription": None,
            "success_url": params.get("success_url"),
            "cancel_url": params.get("cancel_url"),
            "url": f"{self.checkout_page}{session_id}",
            "created": self.now,
            "expires_at": self.now + 24 * 3600,
            "livemode": False,
            # Not part of Stripe's response; kept so complete_checkout knows what was bought.
            "_price": params.get("line_items[0][price]"),
            "_subscription_metadata": _nested(params, "subscription_data[metadata]"),
        }
        self.sessions[session_id] = session
        return _public(session)

    def _portal_session(self, params: dict[str, str]) -> dict[str, Any]:
        return {
            "id": self._id("bps"),
            "object": "billing_portal.session",
            "customer": params.get("customer"),
            "return_url": params.get("return_url"),
            "url": f"https://billing.stripe.com/p/session/test_{next(self._ids)}",
            "created": self.now,
            "livemode": False,
        }

    # Stripe's side of the story.
    def last_call(self, path: str) -> Call:
        return [call for call in self.calls if call.path == path][-1]

    def complete_checkout(
        self, session_id: str, status: str = "active"
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The buyer pays: Stripe creates the customer and the subscription."""
        session = self.sessions[session_id]
        customer = session["customer"] or self._id("cus")
        subscription = self.new_subscription(
            customer, session["_price"], session["_subscription_metadata"], status=status
        )
        session.update(
            status="complete", payment_status="paid", customer=customer, subscription=subscription["id"]
        )
        return _public(session), subscription

    def new_subscription(
        self, customer: str, price: str, metadata: dict[str, str], status: str = "active"
    ) -> dict[str, Any]:
        subscription_id = self._id("sub")
        subscription = {
            "id": subscription_id,
            "object": "subscription",
            "customer": customer,
            "status": status,
            "cancel_at_period_end": False,
            "cancel_at": None,
            "canceled_at": None,
            "created": self.now,
            "currency": "usd",
            "collection_method": "charge_automatically",
            "items": {
                "object": "list",
                "data": [
                    {
                        "id": self._id("si"),
                        "object": "subscription_item",
                        "current_period_start": self.now,
                        "current_period_end": self.now + MONTH,
                        "price": {
                            "id": price,
                            "object": "price",
                            "active": True,
                            "currency": "usd",
                            "product": "prod_knownbase",
                            "recurring": {"interval": "month", "interval_count": 1},
                            "type": "recurring",
                            "unit_amount": 2900,
                        },
                        "quantity": 1,
                        "subscription": subscription_id,
                    }
                ],
                "has_more": False,
                "url": f"/v1/subscription_items?subscription={subscription_id}",
            },
            "latest_invoice": self._id("in"),
            "livemode": False,
            "metadata": dict(metadata),
        }
        self.subscriptions[subscription_id] = subscription
        return subscription

    def set_subscription(self, subscription_id: str, **changes: Any) -> dict[str, Any]:
        subscription = self.subscriptions[subscription_id]
        subscription.update(changes)
        return json.loads(json.dumps(subscription))  # a snapshot, as an event carries it

    def invoice(self, subscription_id: str, *, paid: bool) -> dict[str, Any]:
        subscription = self.subscriptions[subscription_id]
        return {
            "id": self._id("in"),
            "object": "invoice",
            "customer": subscription["customer"],
            "status": "paid" if paid else "open",
            "amount_due": 2900,
            "amount_paid": 2900 if paid else 0,
            "attempt_count": 1,
            "billing_reason": "subscription_cycle",
            "currency": "usd",
            "parent": {
                "type": "subscription_details",
                "quote_details": None,
                "subscription_details": {
                    "metadata": dict(subscription["metadata"]),
                    "subscription": subscription_id,
                },
            },
            "created": self.now,
            "livemode": False,
        }

    def event(self, type: str, obj: Mapping[str, Any], created: int | None = None) -> dict[str, Any]:
        return {
            "id": self._id("evt"),
            "object": "event",
            "api_version": API_VERSION,
            "created": self.now if created is None else created,
            "data": {"object": json.loads(json.dumps(obj))},
            "livemode": False,
            "pending_webhooks": 1,
            "request": {"id": None, "idempotency_key": None},
            "type": type,
        }


def _nested(params: dict[str, str], name: str) -> dict[str, str]:
    """metadata[team]=… form fields back into {"team": …}."""
    prefix = f"{name}["
    return {key[len(prefix) : -1]: value for key, value in params.items() if key.startswith(prefix)}


def _public(obj: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in obj.items() if not key.startswith("_")}


def _error(message: str, code: str | None) -> dict[str, Any]:
    return {"error": {"type": "invalid_request_error", "message": message, "code": code}}


def signed(payload: str, secret: str = WEBHOOK_SECRET, timestamp: int | None = None) -> str:
    """The Stripe-Signature header Stripe would send, made with the library's own signer."""
    return str(stripe.WebhookSignature.generate_signature_header(payload, secret, timestamp))


def post_event(client: Any, event: Mapping[str, Any], **signature: Any) -> Any:
    """POST an event to the real webhook endpoint the way Stripe does."""
    payload = json.dumps(event)
    return client.post(
        "/billing/webhook/",
        data=payload,
        content_type="application/json",
        HTTP_STRIPE_SIGNATURE=signed(payload, **signature),
    )
