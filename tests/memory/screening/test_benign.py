"""What is not a secret (issue 9, point 2): references and placeholders pass in every shape a
developer writes them, and a real-looking value in the same place is still refused."""

from __future__ import annotations

import pytest

from memory.screening.gate import screen

NAMES = ["PASSWORD", "DB_PASSWORD", "SECRET_KEY", "api_key", "jwtSecret", "STRIPE_SECRET_KEY", "auth_token"]
# How a value is given to a name, in .env, YAML, Python/JS code, JSON and TOML.
FORMS = [
    "{name}={value}",
    "{name}: {value}",
    '{name} = "{value}"',
    "'{name}': {value}",
    '"{name}": "{value}"',
]

REFERENCES = [
    "${DB_PASSWORD}",
    "${DB_PASSWORD:?set it}",
    "$DB_PASSWORD",
    "$(cat /run/secrets/db)",
    "${{ secrets.DB_PASSWORD }}",
    "os.environ['DB_PASSWORD']",
    "os.environ.get('DB_PASSWORD')",
    "os.getenv('DB_PASSWORD')",
    "process.env.DB_PASSWORD",
    "env('DB_PASSWORD')",
    "config('DB_PASSWORD')",
    "settings.DB_PASSWORD",
    "ENV.fetch('DB_PASSWORD')",
    "/run/secrets/db-password",
    "/var/run/secrets/app/api-key",
    "./secrets/db_password.txt",
    "~/.config/app/token",
    "vault:secret/data/payments/db#password",
    "arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-AbCdEf",
    "op://Engineering/db/password",
    "projects/acme/secrets/db-password/versions/latest",
    "ENC[AES256_GCM,data:Zm9vYmFy,iv:abc]",
    "%(db_password)s",
    "{{ vault_db_password }}",
]
PLACEHOLDERS = [
    "your-secret-key-here",
    "YOUR_API_KEY",
    "<your-api-key>",
    "<password>",
    "[PASSWORD]",
    "changeme",
    "CHANGE_ME",
    "example",
    "example_123",
    "xxx",
    "xxxxxxxxxxxxxxxx",
    "***",
    "********",
    "password",
    "password123",
    "secret",
    "aaaaaaaaaaaa",
    "dummy-token-for-tests",
    "replace-with-a-long-random-string",
    "not-a-real-secret",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
]
# Machine-made values of the kinds that sit under those names.
REAL = [
    "Tr0ub4dor&3xQ9",
    "q8Z/vK3+rT9wLmN2",
    "9f8e7d6c5b4a39281726354f",
    "xK3#mP9$vL2@nQ7!",
    "aB3dE6gH9jK2mN5pQ8s",
]


def _texts(values: list[str]) -> list[str]:
    return [form.format(name=name, value=value) for value in values for name in NAMES for form in FORMS]


@pytest.mark.parametrize("text", _texts(REFERENCES))
def test_a_reference_is_not_refused(text):
    assert screen({"content": text}) is None


@pytest.mark.parametrize("text", _texts(PLACEHOLDERS))
def test_a_placeholder_is_not_refused(text):
    assert screen({"content": text}) is None


@pytest.mark.parametrize("text", _texts(REAL))
def test_a_real_looking_value_under_the_same_names_is_refused(text):
    finding = screen({"content": text})
    assert finding is not None and finding.family == "secret_assignment"


@pytest.mark.parametrize(
    "value", ["password", "changeme", "<password>", "${DB_PASSWORD}", "****", "secret", "xxx"]
)
@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "db", "db.internal.acme.io", "example.com"])
def test_a_placeholder_password_passes_on_any_host(value, host):
    assert screen({"content": f"postgresql://app:{value}@{host}:5432/app"}) is None


@pytest.mark.parametrize(
    "url",
    [
        "postgres://postgres:postgres@db:5432/app",
        "postgresql://user:password@localhost",
        "mysql://root:root@127.0.0.1:3306/app",
        "amqp://guest:guest@rabbitmq:5672//",
        "mongodb://root:example@mongo:27017/",
        "redis://:changeme@redis:6379/0",
        "http://elastic:changeme@localhost:9200",
        "postgres://app:app@host.docker.internal/app",
    ],
)
def test_development_defaults_on_loopback_and_compose_hosts_pass(url):
    assert screen({"content": url}) is None


@pytest.mark.parametrize(
    "url",
    [
        "postgres://postgres:postgres@db.prod.acme.io:5432/app",  # a weak real password on a real host
        "mysql://root:root@10.0.4.17/app",
        "postgres://app:Xk9vQ2mPz7LwR4tB@localhost/app",  # a real-looking password, even on loopback
        "redis://:Xk9vQ2mPz7LwR4tB@cache:6379",
        "postgres://admin:P@ssw0rd!2024x@db",
        "postgresql://app:q8Z/vK3+rT9wLmN2@rds",
        "amqp://celery:hunter2xyz@rabbit:5672//",
    ],
)
def test_real_looking_passwords_in_connection_strings_are_refused(url):
    finding = screen({"content": f"DSN: {url}"})
    assert finding is not None and finding.family == "connection_string_password"


@pytest.mark.parametrize(
    "text",
    [
        "http://example.com:8080/path/@scope/pkg",
        "https://registry.acme.io:8443/v2/@acme/ui@2.3.1",
        "git+ssh://git@github.com:acme/infra.git",
        "https://medium.com/@user/post",
        "postgres://app@db.internal/app",
    ],
)
def test_urls_without_a_password_pass(text):
    assert screen({"content": text}) is None


@pytest.mark.parametrize(
    "text",
    [
        "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
        "-----BEGIN PRIVATE KEY-----\n<your key here>\n-----END PRIVATE KEY-----",
        "-----BEGIN OPENSSH PRIVATE KEY-----\n-----END OPENSSH PRIVATE KEY-----",
        "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "sk_live_XXXXXXXXXXXXXXXXXXXXXXXX",
        "sk-proj-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
        "xoxb-your-bot-token-goes-here",
        "AKIAXXXXXXXXXXXXXXXX",
        "AKIAI44QH8DHBEXAMPLE",
        "npm_000000000000000000000000000000000000",
    ],
)
def test_documented_examples_of_fixed_shapes_pass(text):
    assert screen({"content": text}) is None


@pytest.mark.parametrize(
    ("text", "family"),
    [
        ("password = os.environ.get('DB_PASSWORD', 'Tr0ub4dor&3xQ9')", "secret_assignment"),
        ("SECRET_KEY = env('SECRET_KEY', default='q8Z/vK3+rT9wLmN2xK3m')", "secret_assignment"),
        ("curl -H 'Authorization: Bearer 8f3a9c2e7b1d4f6a0c5e9b2d7f1a3c6e' https://api", "secret_assignment"),
        ("mysqldump --password Tr0ub4dor3xQ9z app > dump.sql", "secret_assignment"),
        ('<add key="ApiSecret" value="q8Z/vK3+rT9wLmN2xK3m" />', "secret_assignment"),
    ],
)
def test_secrets_in_other_assignment_shapes_are_refused(text, family):
    finding = screen({"content": text})
    assert finding is not None and finding.family == family


@pytest.mark.parametrize(
    "text",
    [
        "tokenizer: bert-base-uncased-v2",
        "cache_key = user:profile:v2:{id}",
        "primary_key: order_id_2024",
        "PASSWORD_MIN_LENGTH = 14",
        "TOKEN_URL=https://auth.acme.io/oauth/token",
        "password_hash = argon2id$v=19$m=65536",
        "max_tokens: 4096",
        "passwordless_login: enabled-2024",
    ],
)
def test_names_that_describe_a_secret_or_are_not_one_pass(text):
    assert screen({"content": text}) is None
