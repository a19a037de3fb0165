from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from knownbase.env import (
    database_from_url,
    email_from_url,
    env_bool,
    env_int,
    env_list,
    env_str,
    env_token,
    env_tokens_by_suffix,
    env_url,
)


def test_env_str_strips_and_defaults():
    assert env_str("X", "d", environ={}) == "d"
    assert env_str("X", environ={"X": "  v "}) == "v"


@pytest.mark.parametrize(
    ("raw", "expected"), [("1", True), ("TRUE", True), ("on", True), ("0", False), ("no", False)]
)
def test_env_bool_parses(raw, expected):
    assert env_bool("DEBUG", environ={"DEBUG": raw}) is expected


def test_env_bool_default_and_garbage():
    assert env_bool("DEBUG", True, environ={}) is True
    with pytest.raises(ImproperlyConfigured, match="DEBUG"):
        env_bool("DEBUG", environ={"DEBUG": "maybe"})


def test_env_int_bounds_and_garbage():
    assert env_int("N", 5, environ={}) == 5
    assert env_int("N", 5, environ={"N": "7"}) == 7
    with pytest.raises(ImproperlyConfigured, match="whole number"):
        env_int("N", 5, environ={"N": "seven"})
    with pytest.raises(ImproperlyConfigured, match="at least 1"):
        env_int("N", 5, minimum=1, environ={"N": "0"})
    with pytest.raises(ImproperlyConfigured, match="at most 9"):
        env_int("N", 5, maximum=9, environ={"N": "10"})


def test_env_list_splits_on_commas():
    assert env_list("H", ["a"], environ={}) == ["a"]
    assert env_list("H", [], environ={"H": "a.com, b.com,,"}) == ["a.com", "b.com"]


def test_env_url_checks_scheme():
    assert (
        env_url("R", schemes=("redis",), environ={"R": "redis://localhost:6379/0"})
        == "redis://localhost:6379/0"
    )
    assert env_url("R", schemes=("redis",), environ={}) == ""
    with pytest.raises(ImproperlyConfigured, match="R must be a URL with scheme redis"):
        env_url("R", schemes=("redis",), environ={"R": "http://localhost"})


def test_database_from_url():
    entry = database_from_url("postgresql://kb:s3cret@db.internal:6543/knownbase")
    assert entry["NAME"] == "knownbase"
    assert entry["ENGINE"] == "knownbase.db_backend"  # the fail-fast pool, without an embedded server
    assert (entry["USER"], entry["PASSWORD"], entry["HOST"], entry["PORT"]) == (
        "kb",
        "s3cret",
        "db.internal",
        "6543",
    )
    with pytest.raises(ImproperlyConfigured, match="must name a database"):
        database_from_url("postgresql://localhost")


def test_email_url_defaults_to_the_console():
    assert email_from_url("").backend == "django.core.mail.backends.console.EmailBackend"
    assert email_from_url("locmem://").backend == "django.core.mail.backends.locmem.EmailBackend"


def test_email_url_smtp_with_starttls_and_encoded_credentials():
    email = email_from_url("smtp://mailer%40acme.test:p%40ss%3Aword@smtp.acme.test:2525?tls=1&timeout=20")
    assert email.backend == "django.core.mail.backends.smtp.EmailBackend"
    assert (email.host, email.port, email.user, email.password) == (
        "smtp.acme.test",
        2525,
        "mailer@acme.test",
        "p@ss:word",
    )
    assert (email.use_tls, email.use_ssl, email.timeout) == (True, False, 20)


def test_email_url_default_ports():
    assert email_from_url("smtp://host.test").port == 25
    assert email_from_url("smtp://host.test?tls=1").port == 587
    smtps = email_from_url("smtps://u:p@host.test")
    assert (smtps.port, smtps.use_ssl, smtps.use_tls) == (465, True, False)


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://host.test", "EMAIL_URL must start with"),
        ("smtp://", "EMAIL_URL has no host"),
        ("smtp://host.test?tls=maybe", "EMAIL_URL option tls"),
        ("smtp://host.test?ssl=1&tls=1", "not both"),
        ("smtp://host.test?starttls=1", "unknown options"),
        ("smtp://host.test:port", "port that is not a number"),
        ("smtp://host.test?timeout=0", "timeout must be at least 1"),
    ],
)
def test_bad_email_urls_fail_loudly(url, message):
    with pytest.raises(ImproperlyConfigured, match=message):
        email_from_url(url)


def test_env_token_checks_the_prefix_without_echoing_the_value():
    assert env_token("K", ("sk_", "rk_"), environ={}) == ""
    assert env_token("K", ("sk_", "rk_"), environ={"K": " rk_live_abc "}) == "rk_live_abc"
    for wrong in ("pk_live_abc", "sk_live abc"):
        with pytest.raises(ImproperlyConfigured, match="K must start with sk_ or rk_") as refused:
            env_token("K", ("sk_", "rk_"), environ={"K": wrong})
        assert "abc" not in str(refused.value)


def test_env_tokens_by_suffix_collects_one_variable_per_code():
    environ = {
        "STRIPE_PRICE_PRO": "price_1",
        "STRIPE_PRICE_TEAM": "price_2",
        "STRIPE_PRICE_": "x",
        "OTHER": "y",
    }
    assert env_tokens_by_suffix("STRIPE_PRICE_", ("price_",), environ=environ) == {
        "pro": "price_1",
        "team": "price_2",
    }
    with pytest.raises(ImproperlyConfigured, match="STRIPE_PRICE_PRO"):
        env_tokens_by_suffix("STRIPE_PRICE_", ("price_",), environ={"STRIPE_PRICE_PRO": "prod_1"})
