"""remember's judgement on single pairs: words and stems, clauses, and each rule with a case it must
catch and a look-alike it must leave alone. The labelled set in labelled/judgement/ measures it."""

from __future__ import annotations

import pytest

from memory.capture.clauses import clauses, names
from memory.capture.judgement import Relation, judge
from memory.recall.similarity import stem, words

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
    assert judge(new, old).relation is expected


def test_a_shorter_text_is_never_a_restatement():
    long = "We deploy with Kubernetes on GKE, using Helm charts for every service"
    assert judge("We deploy with Kubernetes", long).relation is not Relation.RESTATEMENT


def test_restatement_is_checked_before_conflict():
    old = "Sessions use opaque tokens"
    new = "Sessions use opaque tokens, stored in Redis with a 30 minute sliding expiry and rotated on login"
    assert judge(new, old).relation is Relation.RESTATEMENT


def test_stems_fold_inflections_and_keep_codes_whole():
    assert {stem(w) for w in ("deploys", "deployed", "deploying", "deploy")} == {"deploy"}
    assert stem("written") == stem("writes") and stem("retried") == stem("retries") == "retry"
    assert stem("stored") == stem("store") and stem("committed") == stem("commit")
    assert stem("eu-west-1") == "eu-west-1" and stem("tenant_id") == "tenant_id"
    assert words("It doesn't retry; we can't wait") == [
        "it",
        "does",
        "not",
        "retry",
        "we",
        "can",
        "not",
        "wait",
    ]


def test_clauses_split_on_sentences_and_clauses_and_keep_what_is_ruled_out():
    parsed = clauses(
        "Session cookies are signed rather than stored server-side, and the key rotates every 30 days. "
        "Jobs run on cron scripts, not Sidekiq."
    )
    assert len(parsed) == 3
    assert parsed[0].rejected == {stem("stored"), "server-side"} and parsed[0].subject == {"session", "cooky"}
    assert "30" in parsed[1].numbers
    assert parsed[2].rejected == {"sidekiq"} and "sidekiq" not in parsed[2].words
    retired = clauses("The importer no longer reads from the FTP drop.")[0]
    assert retired.negated and {"read", "ftp", "drop"} <= retired.rejected


def test_names_are_codes_numbers_and_capitalised_words_inside_a_sentence():
    assert names("Logs go to Loki in eu-west-1 after 30 days, not to disk.") == {"loki", "eu-west-1", "30"}


# Each rule on statements written for this test, not taken from the labelled set.
RULES = [
    # negation, anywhere in a longer note
    (
        "The importer validates every row. It writes rejected rows to a quarantine table.",
        "The importer does not write rejected rows to a quarantine table.",
        Relation.CONFLICT,
    ),
    ("Grafana alerts page the on-call engineer.", "Grafana alerts never page anyone at night.", None),
    # opposite words
    ("Webhooks are delivered synchronously.", "Webhooks are delivered asynchronously.", Relation.CONFLICT),
    ("The cache layer is mutable.", "The cache layer is immutable.", Relation.CONFLICT),
    (
        "Rate limiting is enabled on the admin API.",
        "Request logging is disabled on the admin API.",
        Relation.UNRELATED,
    ),
    # a changed number, and the same number pattern about something else
    ("The CSV export is capped at 5000 rows.", "The CSV export is capped at 20000 rows.", Relation.CONFLICT),
    ("The CSV export is capped at 5000 rows.", "The PDF export is capped at 200 pages.", Relation.UNRELATED),
    # ruled out: instead of / no longer / replaced by / moved from
    (
        "Thumbnails are cached in Varnish.",
        "Thumbnails are cached in Nginx instead of Varnish.",
        Relation.CONFLICT,
    ),
    ("We lint with flake8.", "We no longer lint with flake8.", Relation.CONFLICT),
    (
        "Metrics are scraped by Prometheus.",
        "Prometheus was replaced by VictoriaMetrics for metrics.",
        Relation.CONFLICT,
    ),
    (
        "Docs are hosted on Read the Docs.",
        "We moved the docs from Read the Docs to GitHub Pages.",
        Relation.CONFLICT,
    ),
    ("Metrics are scraped by Prometheus.", "Nagios was replaced by Prometheus alerts.", Relation.UNRELATED),
    # an exclusive claim reversed
    (
        "Only staff can impersonate users.",
        "Anyone with the support role can impersonate users.",
        Relation.CONFLICT,
    ),
    # roles swapped
    ("The scheduler calls the billing worker.", "The billing worker calls the scheduler.", Relation.CONFLICT),
    ("We use Redis for queues.", "Redis is used for queues.", Relation.DUPLICATE),
    # two answers for one slot, and two uses that are not
    (
        "The mobile backend is deployed to Fly.io.",
        "The mobile backend is deployed to Render.",
        Relation.CONFLICT,
    ),
    ("We use SQLite for tests.", "We use SQLite for the offline cache.", Relation.UNRELATED),
    ("We use Redis for queues.", "We use Redis for locks as well.", Relation.UNRELATED),
    # restatement: all of it and more, about the same subject; a note about another subject is not
    (
        "The importer validates every row.",
        "The importer validates every row against the JSON schema before writing it.",
        Relation.RESTATEMENT,
    ),
    (
        "The importer validates every row.",
        "The scheduler starts the importer, which validates every row, at midnight.",
        Relation.UNRELATED,
    ),
    # duplicate: contained in the note
    (
        "The importer validates every row and writes rejected rows to a quarantine table.",
        "The importer validates every row.",
        Relation.DUPLICATE,
    ),
]


@pytest.mark.parametrize(("old", "new", "expected"), RULES)
def test_rules(old, new, expected):
    relation = judge(new, old).relation
    if expected is None:
        assert relation is not Relation.CONFLICT
    else:
        assert relation is expected


def test_a_paraphrase_is_a_duplicate_only_when_the_embeddings_agree():
    old, new = "The importer is written in Rust.", "The importer is implemented in Rust."
    assert judge(new, old).relation is Relation.UNRELATED
    assert judge(new, old, cosine=0.6).relation is Relation.UNRELATED
    assert judge(new, old, cosine=0.95).relation is Relation.DUPLICATE


def test_no_cosine_turns_a_changed_number_or_name_into_a_duplicate():
    assert judge("Exports expire after 48 hours.", "Exports expire after 24 hours.", 0.99).relation is not (
        Relation.DUPLICATE
    )
    assert judge(
        "The bucket lives in eu-central-1.", "The bucket lives in eu-west-1.", 0.99
    ).relation is not (Relation.DUPLICATE)
    assert judge("Reports are mailed by Postmark.", "Reports are sent by Mailgun.", 0.99).relation is not (
        Relation.DUPLICATE
    )


def test_a_restatement_never_merges_across_subjects_even_with_close_embeddings():
    old = "The billing service retries failed webhooks three times."
    new = "The ledger service calls the billing service, which retries failed webhooks three times."
    assert judge(new, old, cosine=0.95).relation is Relation.UNRELATED


def test_a_statement_inside_a_note_of_another_type_is_not_its_duplicate():
    handoff = "Session work. Decisions: cache prices for 5 minutes. Open items: build the refund button."
    assert judge("Cache prices for 5 minutes.", handoff).relation is Relation.DUPLICATE
    assert judge("Cache prices for 5 minutes.", handoff, same_type=False).relation is Relation.UNRELATED


def test_without_rules_out_what_follows_it():
    old = "The uploader scans every file for viruses before it stores the file."
    assert judge("The uploader stores every file without scanning it for viruses.", old).relation is (
        Relation.CONFLICT
    )
    extended = "The uploader scans every file for viruses without holding the whole file in memory."
    assert judge(extended, "The uploader scans every file for viruses.").relation is Relation.RESTATEMENT


def test_words_gathered_from_different_clauses_are_not_a_duplicate():
    old = "The web app renders on the server; the mobile app only caches."
    assert judge("The mobile app renders on the server.", old).relation is not Relation.DUPLICATE
    assert judge("The web app renders on the server.", old).relation is Relation.DUPLICATE


def test_a_replacement_names_what_it_retires():
    assert clauses("MessageBird replaced Twilio for SMS.")[0].rejected == {"twilio"}
    assert clauses("Twilio was replaced by MessageBird.")[0].rejected == {"twilio"}
    assert clauses("Session tokens are replaced on every login.")[0].rejected == frozenset()
