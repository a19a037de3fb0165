"""Planted values for every family: realistic shapes, none of them a live credential."""

from __future__ import annotations

TRUE_POSITIVES: dict[str, list[str]] = {
    "private_key": [
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ",
        "key: -----BEGIN PRIVATE KEY-----",
        '---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: "rsa-key"\nP2/56wAAAi4AAAA3aWYtbW9kbnsn',
        "PuTTY-User-Key-File-2: ssh-rsa",
    ],
    "aws_access_key": [
        "AKIAZ7QH3M2XLW5RT4NB",
        "creds ASIAY34FZKBOKMUTVV7A expire hourly",
        "aws_AKIAQ4L7XN2MZR8TKC3W_backup.csv",
    ],
    "gcp_credentials": [
        '{"type": "service_account", "private_key_id": "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b"}',
        "maps key AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI",
    ],
    "github_token": [
        "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
        "token_ghp_8fK2mQ9vX4tR7wL1nB6cJ3hZ5yD0sA2eP9uG",
        "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTU",
    ],
    "gitlab_token": ["glpat-xYz12AbC34dEf56GhI78j"],
    "slack_token": [
        "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
        "https://hooks.slack.com/services/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",
    ],
    "stripe_key": [
        "sk_live_51HxYzAbCdEfGhIjKlMnOpQr",
        "rk_test_4eC39HqLyjWDarjtT1zdp7dc",
        "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    ],
    "ai_provider_key": [
        "sk-proj-4fG7hJ9kL2mN5pQ8rS1tU4vW7xY0zA3bC6dE9fG2hJ5kL8",
        "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdEf",
        "sk-9fT3kL0pQ2wE5rT7yU1iO4pA6sD8fG0hJ2kL4zX6cV8b",
    ],
    "npm_token": ["npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"],
    "pypi_token": ["pypi-AgEIcHlwaS5vcmcCJGI4YjM5ZDI3LWE4ZjQtNDMxMi04ZWI3LTk2NjJmNTI4ZDg3NQACKlsz"],
    "jwt": [
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
    ],
    "connection_string_password": [
        "postgres://app:S3cr3tPa55w0rd@db.internal:5432/app",
        "amqp://guest:hunter2xyz@rabbit:5672//",
        "DATABASE_URL=mysql://root:r00tpw!@127.0.0.1/prod",
        "redis://:Xk9vQ2mPz7LwR4tB@cache:6379",
        "postgres://admin:P@ssw0rd!2024x@db",
        "postgresql://app:q8Z/vK3+rT9wLmN2@rds",
    ],
    "secret_assignment": [
        'password = "Tr0ub4dor&3xQ9"',
        "api_key: 9f8e7d6c5b4a39281726354f",
        "CLIENT_SECRET=aB3dE6gH9jK2mN5pQ8s",
    ],
    "payment_card": [
        "4242 4242 4242 4242",
        "5555-5555-5555-4444",
        "card 378282246310005 on file",
        "4111111111111111",
        "4111\t1111\t1111\t1111",
        "5425-2334-3010-9903",
    ],
    "us_ssn": ["123-45-6789", "SSN: 524-31-7788", "SSN 219\u201309\u20139999"],
}

FALSE_POSITIVES: list[str] = [
    "-----BEGIN PUBLIC KEY-----",
    "-----BEGIN CERTIFICATE-----",
    "The AKIA prefix marks AWS access keys",
    "ghp_short is not a token",
    "Use pk_live_51HxYzAbCdEfGhIjKlMnOpQr on the client: publishable keys are public",
    "sk-learn is a library; task-runner is a tool",
    "eyJ is how base64 JSON starts",
    "postgres://app:${DB_PASSWORD}@db.internal:5432/app",
    "postgres://app:****@db.internal/app",
    "postgres://app@db.internal/app",
    "https://example.com/docs?page=2",
    "password: changeme",
    "the password is stored in the team vault",
    "token=abc",
    "password=${DB_PASSWORD}",
    "4111 1111 1111 1112",
    "ratio 0.4242424242424242 and 1,4242424242424242",
    "order 1234567890123 shipped",
    "call +1 415 555 0100",
    "000-12-3456",
    "666-12-3456",
    "123-00-4567",
    "released on 2024-01-15",
    "version 1.2.3-45-6789abc",
    "Use opaque tokens instead of JWTs for sessions",
    "Rotate the Stripe key every 90 days; it lives in 1Password under payments/stripe.",
    # Documented example values (the AWS and Slack docs' own), references and placeholders: ordinary
    # developer text the gate lets through since issue 9.
    "AKIAIOSFODNN7EXAMPLE",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
    "DATABASE_PASSWORD=/run/secrets/db-password",
    "'PASSWORD': os.environ.get('POSTGRES_PASSWORD')",
    "SA_PASSWORD: example_123",
    "postgres://postgres:postgres@db:5432/app",
    "JWT_SECRET=your-secret-key-here\nDATABASE_URL=postgresql://user:password@localhost",
    "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
]


def disguises(value: str) -> dict[str, str]:
    """The same value as an attacker or an accident might hide it."""
    fullwidth = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in value)
    zero_width = "\u200b".join(value[i : i + 3] for i in range(0, len(value), 3))
    soft_hyphen = "\u00ad".join(value[i : i + 5] for i in range(0, len(value), 5))
    return {"fullwidth": fullwidth, "zero_width": zero_width, "soft_hyphen": soft_hyphen}
