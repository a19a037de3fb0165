"""Labelled pairs whose new text says what the stored note says (`duplicate`) or says all of it and
more about the same subject (`restatement`, remember answers `updated`).

Each row: (note type, stored note, new text).
"""

from __future__ import annotations

DUPLICATE: list[tuple[str, str, str]] = [
    # ---------------------------------------------------------------- case, punctuation, spacing
    ("fact", "We use Redis for rate limiting.", "we use redis for rate limiting"),
    ("fact", "The upstream HTTP timeout is 30 seconds.", "The upstream HTTP timeout is 30 seconds"),
    (
        "constraint",
        "Card numbers are never written to application logs.",
        "Card numbers are never written to application logs!",
    ),
    (
        "decision",
        "Use UUIDv7 primary keys for new tables.",
        "Use UUIDv7 primary keys for new tables",
    ),
    ("fact", "Deploys happen on Tuesdays.", "Deploys happen on Tuesdays."),
    (
        "architecture",
        "The checkout service publishes OrderPlaced events to Kafka.",
        "The checkout service publishes `OrderPlaced` events to Kafka.",
    ),
    # ---------------------------------------------------------------- small function-word changes
    (
        "fact",
        "The primary database runs in eu-west-1.",
        "Our primary database runs in eu-west-1.",
    ),
    (
        "fact",
        "Log retention in Loki is 14 days.",
        "The log retention in Loki is 14 days.",
    ),
    (
        "procedure",
        "Run make migrate before starting the dev server.",
        "Run `make migrate` before you start the dev server.",
    ),
    (
        "fact",
        "Password reset links expire after 24 hours.",
        "Password reset links expire after 24 hours.",
    ),
    (
        "constraint",
        "Only the platform team may change production DNS records.",
        "Only the platform team may change the production DNS records.",
    ),
    (
        "fact",
        "The ingestion service is written in Go.",
        "The ingestion service is written in Go, too.",
    ),
    # ---------------------------------------------------------------- contained in the stored note
    (
        "fact",
        "Deploys happen on Tuesdays, after the weekly planning meeting, and never on Fridays.",
        "Deploys happen on Tuesdays.",
    ),
    (
        "architecture",
        "The checkout service writes orders to Postgres. It publishes an OrderPlaced event to Kafka after "
        "the transaction commits.",
        "The checkout service writes orders to Postgres.",
    ),
    (
        "decision",
        "Money is stored as integer cents rather than decimals, in a bigint column.",
        "Money is stored as integer cents rather than decimals.",
    ),
    (
        "fact",
        "Failed webhooks are retried three times with exponential backoff, then parked in a dead-letter "
        "queue.",
        "Failed webhooks are retried three times with exponential backoff.",
    ),
    (
        "constraint",
        "Pull requests need two approvals. The author may not approve their own pull request.",
        "Pull requests need two approvals.",
    ),
    (
        "fact",
        "The Postgres connection pool is capped at 20 connections per pod; PgBouncer sits in front of it.",
        "The Postgres connection pool is capped at 20 connections per pod.",
    ),
    (
        "architecture",
        "Services talk to each other over gRPC instead of REST, with deadlines set on every call.",
        "Services talk to each other over gRPC instead of REST.",
    ),
    # ---------------------------------------------------------------- paraphrases of the same statement
    (
        "fact",
        "We use Redis for caching.",
        "Redis is used for caching.",
    ),
    (
        "fact",
        "Access tokens live for 15 minutes.",
        "Access tokens expire after 15 minutes.",
    ),
    (
        "constraint",
        "Do not deploy on Fridays.",
        "No deploys on Fridays.",
    ),
    (
        "fact",
        "The API rate limit is 100 requests per minute per key.",
        "Each API key is limited to 100 requests per minute.",
    ),
    (
        "decision",
        "We chose Postgres as the primary database.",
        "Postgres is our primary database.",
    ),
    (
        "fact",
        "The ingestion service is written in Go.",
        "The ingestion service is implemented in Go.",
    ),
    (
        "preference",
        "Prefer composition over inheritance in the domain layer.",
        "In the domain layer, prefer composition over inheritance.",
    ),
    (
        "fact",
        "Staging is refreshed from a production snapshot every night.",
        "Every night staging is refreshed from a production snapshot.",
    ),
    (
        "constraint",
        "Secrets must never be committed to the repository.",
        "Never commit secrets to the repository.",
    ),
    (
        "fact",
        "Build artifacts are kept for 90 days.",
        "We keep build artifacts for 90 days.",
    ),
    (
        "fact",
        "Invoices are generated on the first day of each month.",
        "On the first day of each month, invoices are generated.",
    ),
    (
        "procedure",
        "To rotate the Stripe key, update the secret in Vault and restart the billing pods.",
        "Rotating the Stripe key: update the secret in Vault, then restart the billing pods.",
    ),
    (
        "architecture",
        "The mobile apps talk only to the BFF, never to internal services directly.",
        "The mobile apps never talk to internal services directly, only to the BFF.",
    ),
    (
        "fact",
        "Feature flags are evaluated on the server.",
        "Feature flags get evaluated on the server side.",
    ),
    (
        "fact",
        "CI runs the unit tests on every push.",
        "Unit tests run in CI on every push.",
    ),
]

RESTATEMENT: list[tuple[str, str, str]] = [
    # ---------------------------------------------------------------- a short note extended
    (
        "fact",
        "Deploys happen on Tuesdays.",
        "Deploys happen on Tuesdays, after the weekly planning meeting, and never on Fridays.",
    ),
    (
        "fact",
        "We deploy with Kubernetes.",
        "We deploy with Kubernetes on GKE, using Helm charts for every service.",
    ),
    (
        "fact",
        "The API rate limit is 100 requests per minute per key.",
        "The API rate limit is 100 requests per minute per key, enforced in Redis with a sliding window.",
    ),
    (
        "fact",
        "Sessions use opaque tokens.",
        "Sessions use opaque tokens, stored in Redis with a 30 minute sliding expiry and rotated on login.",
    ),
    (
        "fact",
        "The upstream HTTP timeout is 30 seconds.",
        "The upstream HTTP timeout is 30 seconds; calls that exceed it are retried once with jitter.",
    ),
    (
        "constraint",
        "Card numbers are never written to application logs.",
        "Card numbers are never written to application logs; the log formatter masks anything that "
        "passes a Luhn check.",
    ),
    (
        "decision",
        "Use UUIDv7 primary keys for new tables.",
        "Use UUIDv7 primary keys for new tables, generated in the application so inserts need no round trip.",
    ),
    (
        "architecture",
        "The checkout service publishes OrderPlaced events to Kafka.",
        "The checkout service publishes OrderPlaced events to Kafka, keyed by order id so one order's "
        "events stay in order.",
    ),
    (
        "fact",
        "Password reset links expire after 24 hours.",
        "Password reset links expire after 24 hours and can be used once.",
    ),
    (
        "fact",
        "The ingestion service is written in Go.",
        "The ingestion service is written in Go and runs as three replicas behind the internal load "
        "balancer.",
    ),
    (
        "procedure",
        "Run make migrate before starting the dev server.",
        "Run make migrate before starting the dev server. If it fails on a fresh clone, run make db-reset "
        "first.",
    ),
    (
        "fact",
        "Log retention in Loki is 14 days.",
        "Log retention in Loki is 14 days. Audit logs are exported to S3 and kept for seven years.",
    ),
    (
        "constraint",
        "Only the platform team may change production DNS records.",
        "Only the platform team may change production DNS records, through the dns-changes repository "
        "with a reviewed pull request.",
    ),
    (
        "decision",
        "Money is stored as integer cents.",
        "Money is stored as integer cents rather than decimals, in a bigint column next to an ISO "
        "currency code.",
    ),
    (
        "fact",
        "Backups run nightly.",
        "Backups run nightly at 02:00 UTC and are restored into a scratch database every Sunday to prove "
        "they work.",
    ),
    (
        "fact",
        "The mobile app supports offline mode.",
        "The mobile app supports offline mode: carts and the last viewed products are kept in SQLite and "
        "synced on reconnect.",
    ),
    (
        "architecture",
        "Services talk to each other over gRPC.",
        "Services talk to each other over gRPC instead of REST, with deadlines on every call.",
    ),
    (
        "fact",
        "Feature flags are managed in Unleash.",
        "Feature flags are managed in Unleash; the SDK caches them for 15 seconds and falls back to the "
        "last known values.",
    ),
    (
        "constraint",
        "Pull requests need two approvals.",
        "Pull requests need two approvals, and one of them must come from a code owner of the touched paths.",
    ),
    (
        "fact",
        "Error tracking goes to Sentry.",
        "Error tracking goes to Sentry, with a 10 % sample rate for performance traces and 100 % for errors.",
    ),
    (
        "fact",
        "The search index is rebuilt every night.",
        "The search index is rebuilt every night from the catalogue snapshot, and partial updates stream in "
        "through the day.",
    ),
    (
        "decision",
        "Infrastructure is managed with Terraform.",
        "Infrastructure is managed with Terraform. Each environment has its own state file and workspace, "
        "and modules are versioned.",
    ),
    (
        "fact",
        "Webhooks from Stripe are verified.",
        "Webhooks from Stripe are verified with the signing secret, and events older than five minutes "
        "are refused.",
    ),
    (
        "preference",
        "Prefer composition over inheritance in the domain layer.",
        "Prefer composition over inheritance in the domain layer; mixins are allowed only for Django "
        "admin classes.",
    ),
    (
        "fact",
        "The data warehouse is BigQuery.",
        "The data warehouse is BigQuery, loaded by Fivetran every hour and modelled with dbt.",
    ),
    (
        "constraint",
        "Do not deploy on Fridays.",
        "Do not deploy on Fridays, and avoid deploys after 16:00 on any day.",
    ),
    (
        "fact",
        "The staging cluster scales to zero at night.",
        "The staging cluster scales to zero at night and on weekends; the first request wakes it in about "
        "two minutes.",
    ),
    (
        "architecture",
        "Tenant data is isolated by a tenant_id column.",
        "Tenant data is isolated by a tenant_id column on every table, enforced by Postgres row-level "
        "security policies.",
    ),
    (
        "fact",
        "Customer avatars live in S3.",
        "Customer avatars live in S3 behind CloudFront, resized to three widths on upload.",
    ),
    (
        "fact",
        "Invoices are generated on the first day of each month.",
        "Invoices are generated on the first day of each month by a scheduled job, then emailed as PDF "
        "attachments.",
    ),
    # ---------------------------------------------------------------- extended with light rewording
    (
        "fact",
        "We use Redis for caching.",
        "We use Redis for caching API responses and rendered fragments, with keys namespaced per tenant.",
    ),
    (
        "fact",
        "The nightly ETL job is idempotent.",
        "The nightly ETL job is idempotent, so it can be rerun after a failure without duplicating rows.",
    ),
    (
        "decision",
        "The marketing site is built with Astro.",
        "The marketing site is built with Astro and deployed to Netlify on every merge to main.",
    ),
    (
        "fact",
        "CI runs the unit tests on every push.",
        "CI runs the unit tests on every push and the end-to-end suite nightly against staging.",
    ),
    (
        "constraint",
        "Secrets must never be committed to the repository.",
        "Secrets must never be committed to the repository; a pre-commit hook runs gitleaks, and CI "
        "repeats the scan.",
    ),
    (
        "fact",
        "Order ids are ULIDs.",
        "Order ids are ULIDs, so they sort by creation time and can be generated offline by the mobile app.",
    ),
    (
        "fact",
        "The GraphQL gateway validates query depth.",
        "The GraphQL gateway validates query depth and cost before execution; the maximum depth is 8.",
    ),
    (
        "procedure",
        "Release notes are written in the CHANGELOG.",
        "Release notes are written in the CHANGELOG under an Unreleased heading and moved to the version "
        "heading when the tag is cut.",
    ),
    (
        "fact",
        "Health checks hit /healthz.",
        "Health checks hit /healthz, which checks the database and the cache but not third-party APIs.",
    ),
]
