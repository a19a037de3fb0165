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
    "knownbase_api_key": "kb_0123456789ab" + "x" * 43 + " ",
    "huggingface_token": "hf_" + "x" * 34 + " ",
    "sendgrid_key": "SG." + "x" * 22 + "." + "x" * 43 + " ",
    "twilio_api_key": "SK" + "0" * 32 + " ",
    "vault_token": "hvs." + "x" * 24 + " ",
    "digitalocean_token": "dop_v1_" + "0" * 64 + " ",
    "shopify_token": "shpat_" + "0" * 32 + " ",
    "age_secret_key": "AGE-SECRET-KEY-1" + "Q" * 58 + " ",
    "telegram_bot_token": "123456789:A" + "x" * 34 + " ",
    "discord_webhook": "https://discord.com/api/webhooks/123456789012345678/" + "x" * 60 + " ",
    "google_oauth_token": "ya29." + "x" * 30 + " ",
    "mailgun_key": "key-" + "0" * 32 + " ",
    "linear_api_key": "lin_api_" + "x" * 40 + " ",
    "postman_api_key": "PMAK-" + "0" * 24 + "-" + "0" * 34 + " ",
    "basic_auth_header": "Authorization: Basic YWRtaW46 ",
    "curl_password": "curl -u a:$B ",
    "netrc_password": "machine h login u password <p> ",
    "mysql_password": "mysql -p$P ",
    "docker_login_password": "docker login -p $P ",
    "sshpass_password": "sshpass -p $P ",
}
# Inputs once reproduced against a running server.
REPORTED = ["a.", "-eyJ", "sk-", "eyJaaaaaaaa.", "a://", "password=aaaaaaaa\n", "4111 ", "1-23-45-6789"]
