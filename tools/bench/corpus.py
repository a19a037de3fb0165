"""Deterministic, realistic-looking notes for benchmarks: every type, tags, varied length."""

from __future__ import annotations

import random
from collections.abc import Iterator

SUBJECTS = [
    "the payments service", "the ledger", "webhook handlers", "the auth gateway", "session tokens",
    "the search index", "the billing worker", "the mobile app", "the admin dashboard", "feature flags",
    "the CI pipeline", "database migrations", "the Redis cache", "the export job", "rate limiting",
    "the email sender", "image uploads", "the GraphQL schema", "audit logging", "the onboarding flow",
]  # fmt: skip
VERBS = [
    "must use", "now relies on", "should avoid", "was moved to", "is limited by", "depends on",
    "is tested with", "stores data in", "retries through", "is deployed with",
]  # fmt: skip
OBJECTS = [
    "PostgreSQL advisory locks", "a Celery queue", "idempotency keys", "Stripe Checkout", "S3 presigned URLs",
    "opaque tokens", "JWTs", "a sliding window in Redis", "Helm charts on GKE", "pgvector HNSW indexes",
    "structured JSON logs", "OpenTelemetry traces", "a nightly cron", "blue-green deploys", "Kafka topics",
]  # fmt: skip
REASONS = [
    "because retries caused double charges", "after the March outage", "to keep p95 under 50 ms",
    "since the vendor deprecated the old API", "for GDPR data residency", "to cut cloud costs by a third",
    "because tests were flaky", "so that agents can resume work", "to simplify on-call",
]  # fmt: skip
TYPES = [
    ("decision", 0.2), ("constraint", 0.1), ("architecture", 0.08), ("fact", 0.2), ("failed_approach", 0.06),
    ("status", 0.05), ("task", 0.1), ("incident", 0.04), ("procedure", 0.05), ("note", 0.12),
]  # fmt: skip
TAGS = ["payments", "auth", "infra", "search", "billing", "mobile", "ci", "db", "perf", "security"]


def sentence(rng: random.Random) -> str:
    return f"{rng.choice(SUBJECTS).capitalize()} {rng.choice(VERBS)} {rng.choice(OBJECTS)} {rng.choice(REASONS)}."


def notes(count: int, seed: int = 7) -> Iterator[dict[str, object]]:
    rng = random.Random(seed)
    names, weights = zip(*TYPES, strict=True)
    for i in range(count):
        body = " ".join(sentence(rng) for _ in range(rng.randint(1, 6)))
        yield {
            "title": f"{sentence(rng)[:70].rstrip('.')} #{i}",
            "body": body,
            "type": rng.choices(names, weights)[0],
            "tags": rng.sample(TAGS, rng.randint(0, 3)),
            "importance": round(rng.uniform(0.2, 1.0), 2),
        }
