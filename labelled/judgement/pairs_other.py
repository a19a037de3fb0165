"""Labelled pairs where remember must store the new text as a note of its own (`created`): notes about
other subjects (`unrelated`, many of them sharing words, numbers or a frame with the stored note) and
notes that add a different fact about the same subject without contradicting it (`complementary`).

Each row: (note type, stored note, new text).
"""

from __future__ import annotations

UNRELATED: list[tuple[str, str, str]] = [
    # ---------------------------------------------------------------- another subject, same frame
    (
        "fact",
        "The billing service retries failed webhooks three times.",
        "The notification service retries failed webhooks three times.",
    ),
    (
        "fact",
        "The ingestion service is written in Go.",
        "The reporting service is written in Go.",
    ),
    (
        "fact",
        "The ingestion service is written in Go.",
        "The admin dashboard is written in TypeScript.",
    ),
    (
        "fact",
        "The upstream HTTP timeout is 30 seconds.",
        "The database statement timeout is 90 seconds.",
    ),
    (
        "constraint",
        "Uploads larger than 10 MB are rejected by the API.",
        "Emails larger than 25 MB are rejected by the mail relay.",
    ),
    (
        "fact",
        "Password reset links expire after 24 hours.",
        "Email verification links expire after 72 hours.",
    ),
    (
        "fact",
        "Log retention in Loki is 14 days.",
        "Trace retention in Tempo is 3 days.",
    ),
    (
        "fact",
        "The API rate limit is 100 requests per minute per key.",
        "The login endpoint is limited to 5 attempts per minute per IP address.",
    ),
    (
        "constraint",
        "Only the platform team may change production DNS records.",
        "Only the security team may rotate the root CA certificate.",
    ),
    (
        "fact",
        "Production deploys happen on Tuesdays.",
        "Database maintenance happens on Sundays.",
    ),
    (
        "fact",
        "The primary database runs in eu-west-1.",
        "The disaster recovery replica runs in eu-central-1.",
    ),
    (
        "fact",
        "HTTP/2 is enabled on the public load balancer.",
        "Compression is disabled on the internal gRPC channel.",
    ),
    (
        "fact",
        "Access tokens live for 15 minutes.",
        "Refresh tokens live for 30 days.",
    ),
    (
        "fact",
        "The Kafka topic for order events has 12 partitions.",
        "The Kafka topic for payment events has 6 partitions.",
    ),
    (
        "fact",
        "Staging has no access to the production S3 buckets.",
        "Developers have no access to the production database.",
    ),
    (
        "fact",
        "The mobile app caches the product catalogue offline.",
        "The web app caches the user profile in local storage.",
    ),
    (
        "decision",
        "Audit log rows are immutable once written.",
        "Git tags are immutable once pushed.",
    ),
    (
        "fact",
        "Order confirmation emails are sent synchronously inside the checkout request.",
        "Marketing emails are sent asynchronously by the campaign worker.",
    ),
    # ---------------------------------------------------------------- a note about another subject that mentions this one
    (
        "fact",
        "The auth service caches sessions in Redis.",
        "The gateway forwards every request to the auth service, which caches sessions in Redis, and it "
        "adds a request id header.",
    ),
    (
        "fact",
        "The billing service sends invoices through Postmark.",
        "The dunning worker calls the billing service, which sends invoices through Postmark, when a card "
        "fails twice.",
    ),
    (
        "architecture",
        "The search service reads from the catalogue replica.",
        "The recommendations service is a copy of the search service that reads from the catalogue "
        "replica and adds a scoring step.",
    ),
    (
        "fact",
        "The inventory service owns stock levels.",
        "The storefront shows stock levels that the inventory service owns, refreshed every minute by a "
        "cache warmer.",
    ),
    (
        "fact",
        "Deploys happen on Tuesdays.",
        "Our status page announces maintenance one day before deploys happen on Tuesdays.",
    ),
    # ---------------------------------------------------------------- nothing in common, or only a tool name
    (
        "fact",
        "We use Redis for rate limiting.",
        "The design system lives in a separate Storybook repository.",
    ),
    (
        "decision",
        "Use UUIDv7 primary keys for new tables.",
        "Customer support uses Zendesk macros for refund requests.",
    ),
    (
        "fact",
        "Backups run nightly.",
        "The iOS app is released through TestFlight first.",
    ),
    (
        "fact",
        "Postgres is the primary database.",
        "The billing service retries failed webhooks three times.",
    ),
    (
        "procedure",
        "Run make migrate before starting the dev server.",
        "Translations are pulled from Crowdin before each release.",
    ),
    (
        "fact",
        "Error tracking goes to Sentry.",
        "Sentry's release health shows the crash-free rate of the Android app.",
    ),
    (
        "fact",
        "We use Redis for caching.",
        "Redis Sentinel failover takes about 15 seconds in staging.",
    ),
    (
        "fact",
        "Feature flags are managed in Unleash.",
        "The Unleash server runs in the tools cluster next to Grafana.",
    ),
    (
        "decision",
        "We chose Postgres as the primary database.",
        "Postgres major upgrades are rehearsed on a restored snapshot first.",
    ),
    (
        "fact",
        "The data warehouse is BigQuery.",
        "BigQuery costs are reported weekly to the finance channel.",
    ),
    (
        "fact",
        "Use pytest for tests.",
        "Use pytest-django fixtures for database tests in the API package.",
    ),
    (
        "fact",
        "Kafka consumers commit offsets after processing.",
        "The Kafka cluster is upgraded by the platform team every quarter.",
    ),
]

COMPLEMENTARY: list[tuple[str, str, str]] = [
    # ---------------------------------------------------------------- another fact about the same subject
    (
        "fact",
        "Deploys happen on Tuesdays.",
        "Deploys are announced in #releases an hour before they start.",
    ),
    (
        "fact",
        "We use Redis for caching.",
        "We use Redis for rate limiting as well.",
    ),
    (
        "fact",
        "We use Postgres for the job queue.",
        "We use Postgres for full-text search of help articles.",
    ),
    (
        "fact",
        "The ingestion service is written in Go.",
        "The ingestion service exposes Prometheus metrics on port 9102.",
    ),
    (
        "fact",
        "The upstream HTTP timeout is 30 seconds.",
        "Upstream HTTP calls carry a W3C traceparent header.",
    ),
    (
        "constraint",
        "Card numbers are never written to application logs.",
        "Card numbers are tokenised by Stripe Elements before they reach our servers.",
    ),
    (
        "decision",
        "Use UUIDv7 primary keys for new tables.",
        "New tables get created_at and updated_at columns with time zones.",
    ),
    (
        "fact",
        "Password reset links expire after 24 hours.",
        "Password reset emails are sent from no-reply@ through Postmark.",
    ),
    (
        "architecture",
        "The checkout service publishes OrderPlaced events to Kafka.",
        "The checkout service also publishes PaymentFailed events to Kafka.",
    ),
    (
        "fact",
        "Access tokens live for 15 minutes.",
        "Access tokens carry the user's team id and role as claims.",
    ),
    (
        "fact",
        "Log retention in Loki is 14 days.",
        "Loki is queried from Grafana with the logs-prod data source.",
    ),
    (
        "fact",
        "The primary database runs in eu-west-1.",
        "The primary database is a db.r6g.2xlarge instance with 500 GB of gp3 storage.",
    ),
    (
        "constraint",
        "Only the platform team may change production DNS records.",
        "Production DNS records are managed in Route 53 with Terraform.",
    ),
    (
        "fact",
        "Feature flags are evaluated on the server.",
        "Feature flags have an owner and a removal date in their description.",
    ),
    (
        "fact",
        "The mobile app supports offline mode.",
        "The mobile app sends crash reports to Sentry.",
    ),
    (
        "fact",
        "Backups run nightly.",
        "Backups are encrypted with a KMS key that only the backup role can use.",
    ),
    (
        "decision",
        "Money is stored as integer cents.",
        "Currency conversion uses the ECB reference rates fetched every morning.",
    ),
    (
        "architecture",
        "Services talk to each other over gRPC.",
        "Service-to-service calls are authenticated with mTLS certificates from the mesh.",
    ),
    (
        "fact",
        "Production deploys happen on Tuesdays.",
        "Staging deploys happen on every merge to main.",
    ),
    (
        "fact",
        "Password reset links expire after 24 hours.",
        "Magic login links expire after 15 minutes.",
    ),
    (
        "fact",
        "The Postgres connection pool is capped at 20 connections per pod.",
        "The Redis connection pool is capped at 50 connections per pod.",
    ),
    (
        "constraint",
        "Uploads larger than 10 MB are rejected by the API.",
        "Uploads of executables are rejected by the API whatever their size.",
    ),
    (
        "fact",
        "HTTP/2 is enabled on the public load balancer.",
        "TLS 1.0 and 1.1 are disabled on the public load balancer.",
    ),
    (
        "fact",
        "Failed webhooks are retried three times with exponential backoff.",
        "Webhook deliveries time out after 10 seconds.",
    ),
    (
        "fact",
        "The search indexer doesn't retry failed documents.",
        "The search indexer logs failed documents with their validation errors.",
    ),
    (
        "fact",
        "The reporting service reads from the replica.",
        "The reporting service caches dashboards for five minutes.",
    ),
    (
        "constraint",
        "Migrations must not lock the orders table during business hours.",
        "Migrations must be reviewed by a DBA when they touch tables over 10 million rows.",
    ),
    (
        "architecture",
        "Tenant data is isolated by a tenant_id column on every table.",
        "Tenant data is exported per team as a nightly Parquet file.",
    ),
    (
        "fact",
        "The Kafka topic for order events has 12 partitions.",
        "The Kafka topic for order events keeps messages for seven days.",
    ),
    (
        "preference",
        "Prefer feature flags over long-lived release branches.",
        "Prefer small pull requests under 400 changed lines.",
    ),
    (
        "fact",
        "The free plan allows 3 projects per workspace.",
        "The free plan has no access to audit logs.",
    ),
    (
        "decision",
        "Session cookies expire after 7 days of inactivity.",
        "Session cookies are marked HttpOnly, Secure and SameSite=Lax.",
    ),
    (
        "fact",
        "Image thumbnails are generated eagerly at upload time.",
        "Original images are kept for 30 days after a product is deleted.",
    ),
    (
        "fact",
        "We support Node 18 as the minimum runtime for the CLI.",
        "The CLI is published to npm with provenance attestations.",
    ),
    # ---------------------------------------------------------------- the new text negates something the note never said
    (
        "fact",
        "We use Redis for caching.",
        "We do not use Redis for sessions.",
    ),
    (
        "fact",
        "Deploys happen on Tuesdays.",
        "Deploys never happen during an open incident.",
    ),
    (
        "constraint",
        "Pull requests need two approvals.",
        "Pull requests do not need a linked ticket.",
    ),
    (
        "fact",
        "The payments API is stateless; any pod can serve any request.",
        "The payments API is not exposed to the internet; the BFF calls it.",
    ),
    (
        "fact",
        "The nightly ETL job is idempotent.",
        "The nightly ETL job does not touch the billing schema.",
    ),
    # ---------------------------------------------------------------- a replacement of something the note does not assert
    (
        "fact",
        "Error tracking goes to Sentry.",
        "We switched uptime monitoring from Pingdom to Better Stack.",
    ),
    (
        "architecture",
        "Background jobs run on Celery with a RabbitMQ broker.",
        "Cron entries were replaced by Celery beat schedules.",
    ),
    (
        "fact",
        "Search is powered by OpenSearch.",
        "We no longer use Solr for the help-centre search; OpenSearch serves it too.",
    ),
]
