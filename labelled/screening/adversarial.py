"""Adversarial inputs for the gate's linear-time guarantee (tests) and its speed report (tools/bench)."""

from __future__ import annotations

# Near misses repeated until they fill the text: each is a prefix or shape of one family that never
# completes, or completes as a placeholder, so every one is a candidate the gate must judge.
ADVERSARIAL = {
    "private_key": "-----BEGIN PRIVATE KEY-----\n...\n-----END ",
    "aws_access_key": "xAKIAAAAAAAAAAAAAAAAAAAAAAAAA",
    "gcp_credentials": '"private_key_id": "' + "0" * 40 + '" ',
    "github_token": "ghp_" + "x" * 36 + " ",
    "gitlab_token": "glpat-" + "x" * 20 + " ",
    "slack_token": "xoxb-xxxxxxxxxx ",
    "stripe_key": "whsec_" + "X" * 30 + " ",
    "ai_provider_key": "sk-" + "a-" * 20 + " ",
    "npm_token": "npm_" + "x" * 36 + " ",
    "pypi_token": "pypi-AgE" + "x" * 50 + " ",
    "jwt": "eyJhbGciOiJ.eyJxxxxxxxx ",
    "connection_string_password": "a://b:c@",
    "secret_assignment": "--password ",
    "payment_card": "4",
    "us_ssn": "123-45-6789-",
}
# Inputs once reproduced against a running server.
REPORTED = ["a.", "-eyJ", "sk-", "eyJaaaaaaaa.", "a://", "password=aaaaaaaa\n", "4111 ", "1-23-45-6789"]
