"""Stripe settings from the environment, each case in a fresh interpreter (no test set-up)."""

from __future__ import annotations

import pytest

from tests.knownbase.test_settings import import_settings, settings_value

pytestmark = pytest.mark.slow  # an interpreter a case


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"STRIPE_SECRET_KEY": "pk_test_123"}, "STRIPE_SECRET_KEY must start with sk_ or rk_"),
        ({"STRIPE_PUBLISHABLE_KEY": "sk_test_123"}, "STRIPE_PUBLISHABLE_KEY must start with pk_"),
        ({"STRIPE_WEBHOOK_SECRET": "sk_test_123"}, "STRIPE_WEBHOOK_SECRET must start with whsec_"),
        ({"STRIPE_PRICE_PRO": "prod_123"}, "STRIPE_PRICE_PRO must start with price_ or plan_"),
        ({"STRIPE_API_BASE": "ftp://stripe"}, "STRIPE_API_BASE must be a URL"),
        ({"BILLING_GRACE_PERIOD_DAYS": "-1"}, "BILLING_GRACE_PERIOD_DAYS must be at least 0"),
    ],
)
def test_bad_stripe_settings_refuse_to_load(env, message):
    result = import_settings(**env)
    assert result.returncode != 0
    assert message in result.stderr
    assert "_123" not in result.stderr  # a key in the wrong variable is not printed


def test_stripe_is_off_by_default_and_prices_come_from_the_environment():
    expression = (
        "[s.STRIPE_SECRET_KEY, s.STRIPE_WEBHOOK_SECRET, s.STRIPE_PRICE_IDS, s.BILLING_GRACE_PERIOD_DAYS]"
    )
    assert settings_value(expression) == ["", "", {}, 7]
    assert settings_value(
        expression,
        STRIPE_SECRET_KEY="sk_test_abc",
        STRIPE_WEBHOOK_SECRET="whsec_abc",
        STRIPE_PRICE_PRO="price_pro",
        STRIPE_PRICE_TEAM="price_team",
        BILLING_GRACE_PERIOD_DAYS="3",
    ) == ["sk_test_abc", "whsec_abc", {"pro": "price_pro", "team": "price_team"}, 3]
