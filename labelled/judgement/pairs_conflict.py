"""Labelled pairs whose new text contradicts the stored note: remember must answer `conflict`.

Each row: (note type, stored note, new text). Written by hand across several products and teams.
"""

from __future__ import annotations

CONFLICT: list[tuple[str, str, str]] = [
    # ---------------------------------------------------------------- negation added or removed
    ("fact", "We use Redis for rate limiting.", "We do not use Redis for rate limiting."),
    (
        "constraint",
        "Card numbers are never written to application logs.",
        "Card numbers are written to application logs for the fraud team.",
    ),
    (
        "decision",
        "The mobile app caches the product catalogue offline.",
        "The mobile app does not cache the product catalogue offline.",
    ),
    (
        "fact",
        "The nightly ETL job is idempotent and can be rerun safely.",
        "The nightly ETL job is not idempotent and cannot be rerun safely.",
    ),
    (
        "constraint",
        "Migrations must not lock the orders table during business hours.",
        "Migrations may lock the orders table during business hours.",
    ),
    (
        "fact",
        "The search indexer doesn't retry failed documents.",
        "The search indexer retries failed documents.",
    ),
    (
        "decision",
        "Feature flags are evaluated on the server.",
        "Feature flags are never evaluated on the server; the browser evaluates them.",
    ),
    (
        "fact",
        "Staging has no access to the production S3 buckets.",
        "Staging has access to the production S3 buckets.",
    ),
    (
        "constraint",
        "Pull requests can be merged without a second reviewer when they only touch docs.",
        "Pull requests cannot be merged without a second reviewer, even when they only touch docs.",
    ),
    (
        "fact",
        "The GraphQL gateway validates query depth before execution.",
        "The GraphQL gateway does not validate query depth before execution.",
    ),
    (
        "decision",
        "Analytics events are sent to Segment from the backend only.",
        "Analytics events are not sent to Segment from the backend.",
    ),
    # ---------------------------------------------------------------- antonyms
    (
        "fact",
        "Order confirmation emails are sent synchronously inside the checkout request.",
        "Order confirmation emails are sent asynchronously inside the checkout request.",
    ),
    (
        "fact",
        "HTTP/2 is enabled on the public load balancer.",
        "HTTP/2 is disabled on the public load balancer.",
    ),
    (
        "constraint",
        "The `customer_id` field is required on every invoice line.",
        "The `customer_id` field is optional on every invoice line.",
    ),
    (
        "fact",
        "The internal metrics dashboard is public to anyone on the VPN.",
        "The internal metrics dashboard is private to the SRE team.",
    ),
    (
        "decision",
        "Audit log rows are immutable once written.",
        "Audit log rows are mutable once written, so support can fix typos.",
    ),
    (
        "fact",
        "The payments API is stateless; any pod can serve any request.",
        "The payments API is stateful; requests stick to one pod.",
    ),
    (
        "constraint",
        "Wildcard CORS origins are allowed on the public status API.",
        "Wildcard CORS origins are forbidden on the public status API.",
    ),
    (
        "fact",
        "Image thumbnails are generated eagerly at upload time.",
        "Image thumbnails are generated lazily on first request.",
    ),
    (
        "fact",
        "The recommendation model is retrained manually each quarter.",
        "The recommendation model is retrained automatically each quarter.",
    ),
    (
        "fact",
        "Debug logging is turned on in production.",
        "Debug logging is turned off in production.",
    ),
    (
        "decision",
        "Inventory sync uses a push model: the warehouse calls our webhook.",
        "Inventory sync uses a pull model: we poll the warehouse API.",
    ),
    (
        "fact",
        "Price lists are sorted in ascending order of SKU.",
        "Price lists are sorted in descending order of SKU.",
    ),
    (
        "constraint",
        "Backups are stored encrypted in the cold-storage bucket.",
        "Backups are stored unencrypted in the cold-storage bucket.",
    ),
    # ---------------------------------------------------------------- a number that changed
    (
        "fact",
        "The upstream HTTP timeout is 30 seconds.",
        "The upstream HTTP timeout is 90 seconds.",
    ),
    (
        "constraint",
        "Uploads larger than 10 MB are rejected by the API.",
        "Uploads larger than 50 MB are rejected by the API.",
    ),
    (
        "fact",
        "Password reset links expire after 24 hours.",
        "Password reset links expire after 2 hours.",
    ),
    (
        "decision",
        "The Kafka topic for order events has 12 partitions.",
        "The Kafka topic for order events has 48 partitions.",
    ),
    (
        "fact",
        "Failed webhooks are retried three times with exponential backoff.",
        "Failed webhooks are retried five times with exponential backoff.",
    ),
    (
        "fact",
        "The Postgres connection pool is capped at 20 connections per pod.",
        "The Postgres connection pool is capped at 50 connections per pod.",
    ),
    (
        "constraint",
        "Access tokens live for 15 minutes.",
        "Access tokens live for 60 minutes.",
    ),
    (
        "fact",
        "We support Node 18 as the minimum runtime for the CLI.",
        "We support Node 20 as the minimum runtime for the CLI.",
    ),
    (
        "fact",
        "The free plan allows 3 projects per workspace.",
        "The free plan allows 5 projects per workspace.",
    ),
    (
        "decision",
        "Session cookies expire after 7 days of inactivity.",
        "Session cookies expire after 30 days of inactivity.",
    ),
    (
        "fact",
        "Log retention in Loki is 14 days.",
        "Log retention in Loki is 30 days.",
    ),
    (
        "constraint",
        "The mobile app's minimum supported iOS version is 15.",
        "The mobile app's minimum supported iOS version is 16.",
    ),
    # ---------------------------------------------------------------- instead of / rather than / over, reversed
    (
        "decision",
        "We render the marketing site statically with Astro rather than server-side with Next.js.",
        "We render the marketing site server-side with Next.js rather than statically with Astro.",
    ),
    (
        "decision",
        "Use UUIDv7 primary keys instead of bigint sequences for new tables.",
        "Use bigint sequences instead of UUIDv7 primary keys for new tables.",
    ),
    (
        "preference",
        "Prefer feature flags over long-lived release branches.",
        "Prefer long-lived release branches over feature flags.",
    ),
    (
        "decision",
        "Money is stored as integer cents rather than decimals.",
        "Money is stored as decimals rather than integer cents.",
    ),
    (
        "architecture",
        "Services talk to each other over gRPC instead of REST.",
        "Services talk to each other over REST instead of gRPC.",
    ),
    (
        "decision",
        "Background jobs use Sidekiq instead of cron scripts.",
        "Background jobs use cron scripts, not Sidekiq.",
    ),
    (
        "decision",
        "We pin Python dependencies with uv lockfiles rather than pip-tools.",
        "We pin Python dependencies with pip-tools rather than uv lockfiles.",
    ),
    # ---------------------------------------------------------------- no longer
    (
        "fact",
        "The reporting service reads from the primary database.",
        "The reporting service no longer reads from the primary database; it reads from the replica.",
    ),
    (
        "fact",
        "We use Jenkins for CI.",
        "We no longer use Jenkins for CI; we use GitHub Actions.",
    ),
    (
        "fact",
        "Search is powered by Elasticsearch.",
        "Search is no longer powered by Elasticsearch; it runs on OpenSearch now.",
    ),
    (
        "constraint",
        "Every deploy needs a change ticket in ServiceNow.",
        "Deploys no longer need a change ticket in ServiceNow.",
    ),
    (
        "fact",
        "The billing service sends invoices through Mailgun.",
        "The billing service no longer sends invoices through Mailgun.",
    ),
    (
        "fact",
        "Customer avatars are stored on the app server's local disk.",
        "Customer avatars are no longer stored on local disk; they live in S3.",
    ),
    # ---------------------------------------------------------------- replaced by / moved from / switched
    (
        "architecture",
        "Background jobs run on Celery with a RabbitMQ broker.",
        "Celery was replaced by Dramatiq for background jobs.",
    ),
    (
        "fact",
        "Feature flags are managed in LaunchDarkly.",
        "LaunchDarkly was replaced by Unleash for managing feature flags.",
    ),
    (
        "fact",
        "Error tracking goes to Rollbar.",
        "We switched error tracking from Rollbar to Sentry.",
    ),
    (
        "architecture",
        "The monolith's session store is Memcached.",
        "The session store moved from Memcached to Redis.",
    ),
    (
        "fact",
        "Infrastructure is provisioned with CloudFormation templates.",
        "We migrated infrastructure provisioning from CloudFormation to Terraform.",
    ),
    (
        "decision",
        "Frontend state lives in Redux.",
        "Redux has been replaced by Zustand for frontend state.",
    ),
    (
        "fact",
        "Our container images are built with Kaniko.",
        "Kaniko was replaced by BuildKit for building container images.",
    ),
    (
        "fact",
        "Transactional SMS go out through Twilio.",
        "Transactional SMS now go out through MessageBird instead of Twilio.",
    ),
    # ---------------------------------------------------------------- quantifier reversed
    (
        "constraint",
        "Only the platform team may change production DNS records.",
        "Any engineer may change production DNS records.",
    ),
    (
        "constraint",
        "Only admins can delete a workspace.",
        "Any member can delete a workspace.",
    ),
    (
        "fact",
        "All API endpoints require authentication.",
        "Some API endpoints do not require authentication.",
    ),
    (
        "constraint",
        "Only the release manager can tag a production release.",
        "Anyone on the team can tag a production release.",
    ),
    (
        "fact",
        "Every table in the warehouse has a primary key.",
        "No table in the warehouse has a primary key.",
    ),
    # ---------------------------------------------------------------- two answers for one slot
    (
        "architecture",
        "Tenant data is isolated by a tenant_id column on every table.",
        "Tenant data is isolated by a schema per team.",
    ),
    (
        "fact",
        "The ingestion service is written in Go.",
        "The ingestion service is written in Rust.",
    ),
    (
        "fact",
        "Production deploys happen on Tuesdays.",
        "Production deploys happen on Thursdays.",
    ),
    (
        "architecture",
        "Application logs are shipped to Datadog.",
        "Application logs are shipped to Grafana Loki.",
    ),
    (
        "fact",
        "The primary database runs in eu-west-1.",
        "The primary database runs in us-east-1.",
    ),
    (
        "decision",
        "Our package manager for the web app is pnpm.",
        "Our package manager for the web app is yarn.",
    ),
    (
        "fact",
        "The default branch of the monorepo is main.",
        "The default branch of the monorepo is develop.",
    ),
    (
        "architecture",
        "User passwords are hashed with bcrypt.",
        "User passwords are hashed with Argon2id.",
    ),
    (
        "fact",
        "On-call handovers happen every Monday at 10:00.",
        "On-call handovers happen every Friday at 16:00.",
    ),
    # ---------------------------------------------------------------- reversal inside one clause of a longer note
    (
        "decision",
        "Session cookies are signed with HMAC-SHA256 rather than stored server-side, and the signing key "
        "rotates every 30 days. The previous key stays valid for one day after rotation so sessions "
        "survive a deploy.",
        "Session cookies are stored server-side rather than signed with HMAC-SHA256.",
    ),
    (
        "architecture",
        "The checkout service writes orders to Postgres. It publishes an OrderPlaced event to Kafka after "
        "the transaction commits, and the email worker consumes that event.",
        "The checkout service publishes the OrderPlaced event to Kafka before the transaction commits.",
    ),
    (
        "fact",
        "Refunds are processed by the payments worker; they are idempotent because each carries the "
        "original charge id, and partial refunds are supported.",
        "Partial refunds are not supported.",
    ),
    (
        "constraint",
        "Public API responses are cached by the CDN for 60 seconds. Authenticated responses are never "
        "cached, and the cache key includes the Accept-Language header.",
        "Authenticated responses are cached by the CDN.",
    ),
    (
        "architecture",
        "The web client talks to the BFF over HTTPS; the BFF calls internal services with mTLS and "
        "retries idempotent calls twice.",
        "The BFF calls internal services without mTLS.",
    ),
    (
        "fact",
        "Our Terraform state lives in an S3 bucket with DynamoDB locking. Plans run in CI on every pull "
        "request, and applies run only from the main branch.",
        "Terraform applies run from any branch.",
    ),
    (
        "decision",
        "Images are resized on upload with libvips, stored as WebP, and served through CloudFront with a "
        "one-year cache.",
        "Images are stored as JPEG, not WebP.",
    ),
    # ---------------------------------------------------------------- roles swapped
    (
        "architecture",
        "Postgres is the source of truth for carts and Redis is a read-through cache.",
        "Redis is the source of truth for carts and Postgres is a read-through cache.",
    ),
    (
        "architecture",
        "The orders service calls the inventory service to reserve stock.",
        "The inventory service calls the orders service to reserve stock.",
    ),
    (
        "fact",
        "The staging cluster mirrors production traffic, not the other way round.",
        "The production cluster mirrors staging traffic.",
    ),
]
