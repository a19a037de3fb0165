"""The reversal / restatement pairs the remember thresholds are tuned on."""

from __future__ import annotations

import pytest

from memory.similarity import Relation, compare

PAIRS = [
    # (existing note, new text, expected relation of the new text to the existing note)
    (
        "Use opaque tokens instead of JWTs for sessions",
        "Use JWTs instead of opaque tokens for sessions",
        Relation.CONFLICT,
    ),
    (
        "Prefer composition over inheritance in the domain layer",
        "Prefer inheritance over composition in the domain layer",
        Relation.CONFLICT,
    ),
    (
        "Postgres is the source of truth and Redis is a cache",
        "Redis is the source of truth and Postgres is a cache",
        Relation.CONFLICT,
    ),
    ("We use Redis for caching", "We do not use Redis for caching", Relation.CONFLICT),
    ("Deploys run on Fridays", "Deploys never run on Fridays", Relation.CONFLICT),
    ("We use Redis for caching", "We use Redis for caching.", Relation.DUPLICATE),
    ("We use Redis for caching", "we use redis for  caching", Relation.DUPLICATE),
    (
        "We deploy with Kubernetes",
        "We deploy with Kubernetes on GKE, using Helm charts for every service",
        Relation.RESTATEMENT,
    ),
    (
        "The API rate limit is 100 requests per minute per key",
        "The API rate limit is 100 requests per minute per key, enforced in Redis with a sliding window",
        Relation.RESTATEMENT,
    ),
    (
        "Postgres is the primary database",
        "The billing service retries failed webhooks three times",
        Relation.UNRELATED,
    ),
    (
        "Use pytest for tests",
        "Use pytest-django fixtures for database tests in the API package",
        Relation.UNRELATED,
    ),
]


@pytest.mark.parametrize(("old", "new", "expected"), PAIRS)
def test_relation(old, new, expected):
    assert compare(new, old).relation() is expected


def test_a_shorter_text_is_never_a_restatement():
    long = "We deploy with Kubernetes on GKE, using Helm charts for every service"
    assert compare("We deploy with Kubernetes", long).relation() is not Relation.RESTATEMENT


def test_restatement_is_checked_before_conflict():
    old = "Sessions use opaque tokens"
    new = "Sessions use opaque tokens, stored in Redis with a 30 minute sliding expiry and rotated on login"
    comparison = compare(new, old)
    assert comparison.old_bigram_coverage == 1.0
    assert comparison.relation() is Relation.RESTATEMENT


def test_similarity_is_symmetric():
    a, b = "Use opaque tokens instead of JWTs", "Use JWTs instead of opaque tokens"
    assert compare(a, b).word_similarity == compare(b, a).word_similarity
    assert compare(a, b).bigram_similarity == compare(b, a).bigram_similarity
