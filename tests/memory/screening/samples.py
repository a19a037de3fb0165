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
        "4111.1111.1111.1111",
        "5555_5555_5555_4444",
        "3782/822463/10005",
        "card:\n4000\n0566\n5566\n5556\n",
    ],
    "us_ssn": ["123-45-6789", "SSN: 524-31-7788", "SSN 219\u201309\u20139999"],
    # Issue 20: shapes the gate stored before. services.py
    "knownbase_api_key": [
        "kb_483a50dd234a850AzOQQ2l-ZkAFezmkyGKNGupcIDCEhbMJrQ5tJ3uv",
        "the nightly agent runs as kb_42ef0569c396UMsmaJhXVKY7mi8BbiRbwJLmafBAZkUK4grWYYGa6l- (rotate monthly)",
    ],
    "huggingface_token": [
        "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",
        "pushed the model with 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 from the CI box",
    ],
    "sendgrid_key": ["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"],
    "twilio_api_key": [
        "SK0a3fd3a00317e7bb23278eef11e25567",
        "sid SK67914beaef093b6945178510363fe871 for the SMS worker",
    ],
    "vault_token": [
        "hvs.CAESpcrjCXdRAGJOBD1gGbE4R1PVklY8wIqjtfrDpdBlQEf-DrYn6GAgOYj2421pCFOmcyafRv1RgDtHM8KnPjD6CK"
    ],
    "digitalocean_token": ["dop_v1_2819295e8d22bf724f9b28c6eda9c0bf5b0eefeefab913a02fb4e54430f89894"],
    "shopify_token": ["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", "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"],
    "age_secret_key": ["AGE-SECRET-KEY-12FWAAJCCZ7XE98ZW0WC5REQW74DNQK0TJWZUKLMKVE3CHXJ23TMFY0G3KH"],
    "telegram_bot_token": [
        "7752116184:AA1DgSvhOmcQp6cO_I6UO3KI6BKpox947Gr",
        "https://api.telegram.org/bot2668755315:AAOaoiMV1RNzo-tEx160LjMycDuv_kM_kkO/getUpdates",
    ],
    "discord_webhook": [
        "https://discord.com/api/webhooks/878977738965245615/o-Pmduqb3stNdcxiMtJcnjJEv3cX4Dsjax3rBJSogkUrTMKvHDAt-t2PfjYTJQvyrhrI"
    ],
    "google_oauth_token": [
        "ya29.a0_jCJdNu7aJlRGLa_yuNoOhSukLCyfPf6hgHG4sddOp3C3IBsy5hSKfOtSrnBdTgpo0M87_CgDMhcIwUgIyyHj9wDISPCG4J",
        "ya29.c.c0Swnd4VBmyP2A1YtKF8ZUQ6K98QscGsJbifgX7OHvR10OH16Nts4brGpWshHoThaddPxv8_QPwpIQ_5Nav",
    ],
    "mailgun_key": ["key-630ad5fd42d98828ba05040d48ea0f70"],
    "linear_api_key": ["lin_api_hDoiRjaydF9DuoOC5Z98rVgrZWujgYWPqVe5LURc"],
    "postman_api_key": ["PMAK-30cd79d7949b5a381a32f1de-36c17c0a1857474a1c0f107a4ce7c3d3a9"],
    # commands.py
    "basic_auth_header": ["Authorization: Basic ZGVwbG95OlZ4NyNxTG0yUnA5dw=="],
    "curl_password": ["curl -s -u deploy:CJ3BLT+apEFW https://ci.acme.io/api/json"],
    "netrc_password": ["machine api.heroku.com\n  login ana@acme.io\n  password InBKTk!bRcd8\n"],
    "mysql_password": ["mysql -h db.acme.io -u app -payh2Pe%NBeKC app_prod"],
    "docker_login_password": ["docker login -u ci -p m5mToq#hmdbO registry.acme.io"],
    "sshpass_password": ["sshpass -p 'fbxie1#EamXs' ssh deploy@10.0.4.12"],
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
    # Twins of the shapes of issue 20: ids, placeholders, references, documentation, prose.
    "Revoke kb_3f9a1c2d4e5b6a7c from the keys page; it was shown once as kb_3f9a1c2d4e5b6a7cXyZ…",
    "export HF_TOKEN=hf_xxx, then hf_hub_download(repo_id=...)",
    "SENDGRID_API_KEY=${SENDGRID_API_KEY}; keys look like SG.xxxxxxxx.yyyyyyyy",
    "The SKU and SKIP columns; SK marks a Twilio API key sid",
    "Vault tokens start with hvs. and live for 768h",
    "DIGITALOCEAN_TOKEN=dop_v1_<your token>",
    "shpat_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "age public key age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p",
    "Telegram's docs: a token looks like 123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11",
    "POST to https://discord.com/api/webhooks/{webhook.id}/{webhook.token}",
    "Google access tokens start with ya29. and expire after an hour",
    "Use a key-value store; key-rotation-policy is yearly",
    "LINEAR_API_KEY=lin_api_your_key_here",
    "PMAK-<your-postman-key>",
    "Authorization: Basic <base64 of user:password>",
    "Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==",
    "curl -u admin:admin http://localhost:9200/_cat/indices",
    'curl -u "$API_USER:$API_PASSWORD" https://api.acme.io',
    "curl -u alice https://files.acme.io (asks for the password)",
    "machine github.com login ana password <token>",
    "mysql -u root -p app_dev",
    "mysql -uroot -proot",
    'echo "$CR_PAT" | docker login ghcr.io -u bot --password-stdin',
    "sshpass -e ssh -p 2222 deploy@bastion.acme.io",
    "release 4.1.1111.1111 on 2024/11/30 from 10.4.111.23",
    "ports:\n5432\n6379\n8080\n9201\n",
]


def disguises(value: str) -> dict[str, str]:
    """The same value as an attacker or an accident might hide it."""
    fullwidth = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in value)
    zero_width = "\u200b".join(value[i : i + 3] for i in range(0, len(value), 3))
    soft_hyphen = "\u00ad".join(value[i : i + 5] for i in range(0, len(value), 5))
    return {"fullwidth": fullwidth, "zero_width": zero_width, "soft_hyphen": soft_hyphen}
