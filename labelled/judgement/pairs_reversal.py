"""Compound reversals: a stored decision, then a text that retires it in one clause and names its
replacement in another ("We no longer use Kubernetes; we deploy to Fly.io"). remember must answer
`conflict`, so get_context never serves both as current. Beside them, near misses that must stay
`created`: the same retiring words about another scope, another subject or something the note never
said. Written by hand before the rule that judges them; split into tuning and held-out parts by the
same hash as the frozen set (dataset.Pair.held_out), and pinned by a test.
"""

from __future__ import annotations

REVERSAL: list[tuple[str, str, str]] = [
    ("decision", "We deploy with Kubernetes.", "We no longer use Kubernetes; we deploy to Fly.io."),
    ("decision", "The API runs on Heroku.", "We stopped using Heroku; the API runs on Render now."),
    ("decision", "We use MySQL for the orders database.", "We dropped MySQL and moved the orders database to PostgreSQL."),
    ("decision", "Frontend state lives in Redux.", "We no longer use Redux; frontend state lives in Zustand."),
    ("decision", "CI runs on Jenkins.", "Jenkins is gone; CI runs on GitHub Actions."),
    ("decision", "We send transactional email through SendGrid.", "We moved off SendGrid; transactional email goes through Postmark."),
    ("decision", "Search is powered by Elasticsearch.", "We replaced Elasticsearch with Typesense for search."),
    ("constraint", "All services log to Papertrail.", "Services no longer log to Papertrail; they log to Grafana Loki."),
    ("decision", "Feature flags are managed in LaunchDarkly.", "LaunchDarkly was dropped; feature flags live in our own flags table."),
    ("decision", "We store uploads on S3.", "Uploads are no longer stored on S3; we store them on Cloudflare R2."),
    ("decision", "The team uses Jira for issue tracking.", "The team stopped using Jira and tracks issues in Linear."),
    ("decision", "Background jobs run on Sidekiq.", "We no longer run background jobs on Sidekiq; they run on GoodJob."),
    ("decision", "Tests are written with Jest.", "We no longer write tests with Jest; we switched to Vitest."),
    ("decision", "Payments go through Braintree.", "Braintree is retired: payments go through Stripe."),
    ("decision", "We host the docs on ReadTheDocs.", "We don't host the docs on ReadTheDocs anymore; they are on GitHub Pages."),
    ("procedure", "Releases are cut manually every Friday.", "Releases are no longer cut manually; a bot cuts them on every merge."),
    ("decision", "Metrics are collected with Datadog.", "We cancelled Datadog; metrics are collected with Prometheus."),
    ("decision", "Auth is handled by Auth0.", "Auth0 is no longer used; auth is handled by Clerk."),
    ("decision", "The mobile app is built with React Native.", "We abandoned React Native; the mobile app is now built with Swift and Kotlin."),
    ("decision", "We package the CLI with PyInstaller.", "The CLI is no longer packaged with PyInstaller; we package it as a uv tool."),
    ("constraint", "Code review needs two approvals.", "Code review no longer needs two approvals; one approval is enough."),
    ("decision", "Secrets are kept in Vault.", "We stopped keeping secrets in Vault and moved them to AWS Secrets Manager."),
    ("decision", "We deploy the website with Netlify.", "Netlify is not used any more; the website deploys with Vercel."),
    ("decision", "Our ORM is SQLAlchemy.", "We no longer use SQLAlchemy; our ORM is now the Django ORM."),
]  # fmt: skip

NEAR_MISS: list[tuple[str, str, str]] = [
    ("decision", "We deploy with Kubernetes.", "We also use Fly.io for preview environments."),
    ("decision", "We use MySQL for the orders database.", "We no longer use MySQL for analytics; analytics moved to ClickHouse."),
    ("decision", "The API runs on Heroku.", "We stopped using Heroku Scheduler; cron jobs run in GitHub Actions."),
    ("decision", "Frontend state lives in Redux.", "We no longer write class components; new components are function components."),
    ("decision", "We send transactional email through SendGrid.", "Marketing email no longer goes through SendGrid; it goes through Mailchimp."),
    ("decision", "Search is powered by Elasticsearch.", "Logs are no longer kept in Elasticsearch; they go to Loki."),
    ("decision", "Payments go through Stripe.", "We no longer accept cheques; customers pay by card or bank transfer."),
    ("decision", "Tests are written with pytest.", "We stopped running the slow tests on every push; they run nightly."),
    ("decision", "We store uploads on S3.", "Thumbnails are no longer generated on upload; they are generated on first view."),
    ("decision", "Auth is handled by Auth0.", "We no longer support password login for admins; admins sign in with SSO through Auth0."),
    ("decision", "The team uses Linear for issue tracking.", "Bugs reported by customers no longer go to email; they go to Linear too."),
    ("decision", "Background jobs run on Sidekiq.", "We no longer retry failed jobs forever; Sidekiq gives up after 25 tries."),
    ("decision", "Our ORM is SQLAlchemy.", "We no longer write raw SQL in request handlers; queries go through SQLAlchemy."),
    ("decision", "Metrics are collected with Prometheus.", "Dashboards are no longer built by hand; they are generated from Jsonnet."),
    ("constraint", "Code review needs two approvals.", "Docs-only changes no longer need a code review."),
    ("decision", "Secrets are kept in Vault.", "We stopped committing .env files; developers load secrets from Vault."),
]  # fmt: skip
