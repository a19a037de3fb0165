"""Pairs written after the judgement was tuned, in domains the rest of the set does not use (ML
pipelines, games, health records, data engineering, embedded devices), and measured once as they
stood: a check of how the rules generalise beyond the text they were tuned on.

Each row: (relation, note type, stored note, new text).
"""

from __future__ import annotations

FRESH: list[tuple[str, str, str, str]] = [
    # ---------------------------------------------------------------- conflict
    (
        "conflict",
        "fact",
        "The feature store is refreshed every 6 hours from the warehouse.",
        "The feature store is refreshed every 24 hours from the warehouse.",
    ),
    (
        "conflict",
        "decision",
        "Model training runs on spot instances to save cost.",
        "Model training does not run on spot instances.",
    ),
    (
        "conflict",
        "fact",
        "Patient records are encrypted at rest with per-tenant keys.",
        "Patient records are unencrypted at rest.",
    ),
    (
        "conflict",
        "architecture",
        "The game server is authoritative for player positions; clients only predict.",
        "Clients are authoritative for player positions.",
    ),
    (
        "conflict",
        "fact",
        "Firmware updates are delivered over the air with delta patches.",
        "Firmware updates are no longer delivered over the air; technicians flash them on site.",
    ),
    (
        "conflict",
        "decision",
        "We store embeddings in pgvector rather than in Pinecone.",
        "We store embeddings in Pinecone rather than in pgvector.",
    ),
    (
        "conflict",
        "fact",
        "Airflow was replaced by Dagster for orchestrating the nightly pipelines.",
        "The nightly pipelines are orchestrated by Airflow.",
    ),
    (
        "conflict",
        "constraint",
        "Only clinicians may view unredacted lab results.",
        "Anyone in the support team may view unredacted lab results.",
    ),
    (
        "conflict",
        "fact",
        "The matchmaking queue times out after 90 seconds.",
        "The matchmaking queue times out after 45 seconds.",
    ),
    (
        "conflict",
        "architecture",
        "Sensor readings are batched on the device and uploaded every minute. The gateway validates "
        "checksums before it forwards the batch.",
        "The gateway forwards each batch without validating checksums.",
    ),
    (
        "conflict",
        "fact",
        "The recommendation API is deployed in a single region.",
        "The recommendation API is deployed in multiple regions.",
    ),
    (
        "conflict",
        "fact",
        "Inference requests are served by Triton.",
        "We moved inference serving from Triton to vLLM.",
    ),
    (
        "conflict",
        "decision",
        "Dashboards are built in Metabase.",
        "Dashboards are built in Looker.",
    ),
    (
        "conflict",
        "constraint",
        "PII columns are hashed before they leave the warehouse.",
        "PII columns leave the warehouse in plaintext, not hashed.",
    ),
    (
        "conflict",
        "fact",
        "Leaderboards are computed in batch once a day.",
        "Leaderboards are computed in real time on every match result, not in a daily batch.",
    ),
    # ---------------------------------------------------------------- duplicate
    (
        "duplicate",
        "fact",
        "The feature store is refreshed every 6 hours from the warehouse.",
        "The feature store is refreshed from the warehouse every 6 hours.",
    ),
    (
        "duplicate",
        "constraint",
        "Only clinicians may view unredacted lab results.",
        "Only clinicians may view the unredacted lab results.",
    ),
    (
        "duplicate",
        "fact",
        "Sensor readings are batched on the device and uploaded every minute. The gateway validates "
        "checksums.",
        "Sensor readings are batched on the device and uploaded every minute.",
    ),
    (
        "duplicate",
        "decision",
        "We store embeddings in pgvector.",
        "Embeddings are stored in pgvector.",
    ),
    (
        "duplicate",
        "fact",
        "The matchmaking queue times out after 90 seconds.",
        "Matchmaking queue timeout: 90 seconds.",
    ),
    (
        "duplicate",
        "procedure",
        "Retrain the churn model when its AUC drops below 0.8.",
        "When the churn model's AUC drops below 0.8, retrain it.",
    ),
    (
        "duplicate",
        "fact",
        "Patient records are encrypted at rest with per-tenant keys.",
        "patient records are encrypted at rest with per-tenant keys",
    ),
    # ---------------------------------------------------------------- restatement
    (
        "restatement",
        "fact",
        "Model training runs on spot instances.",
        "Model training runs on spot instances, with checkpoints every 15 minutes so an interruption loses "
        "little work.",
    ),
    (
        "restatement",
        "fact",
        "The game server is authoritative for player positions.",
        "The game server is authoritative for player positions and hit registration; clients only predict "
        "and reconcile.",
    ),
    (
        "restatement",
        "constraint",
        "PII columns are hashed before they leave the warehouse.",
        "PII columns are hashed with a salted SHA-256 before they leave the warehouse, and the salt lives in "
        "Vault.",
    ),
    (
        "restatement",
        "fact",
        "Firmware updates are delivered over the air.",
        "Firmware updates are delivered over the air with delta patches signed by the release key.",
    ),
    (
        "restatement",
        "decision",
        "Dashboards are built in Metabase.",
        "Dashboards are built in Metabase and embedded in the admin app through signed iframes.",
    ),
    (
        "restatement",
        "fact",
        "Leaderboards are computed in batch once a day.",
        "Leaderboards are computed in batch once a day at 04:00 UTC, and the top 100 are cached in Redis.",
    ),
    (
        "restatement",
        "procedure",
        "Retrain the churn model when its AUC drops below 0.8.",
        "Retrain the churn model when its AUC drops below 0.8; the monitoring job opens a ticket when that "
        "happens.",
    ),
    (
        "restatement",
        "fact",
        "Inference requests are served by vLLM.",
        "Inference requests are served by vLLM on two A100 nodes behind the internal gateway.",
    ),
    # ---------------------------------------------------------------- unrelated
    (
        "unrelated",
        "fact",
        "The matchmaking queue times out after 90 seconds.",
        "The login queue times out after 30 seconds.",
    ),
    (
        "unrelated",
        "fact",
        "Patient records are encrypted at rest with per-tenant keys.",
        "Billing records are encrypted at rest with a shared key.",
    ),
    (
        "unrelated",
        "fact",
        "The feature store is refreshed every 6 hours from the warehouse.",
        "The search index is refreshed every hour from the catalogue.",
    ),
    (
        "unrelated",
        "fact",
        "Model training runs on spot instances.",
        "The labelling tool runs on a single on-demand instance that the training pipeline calls, which runs "
        "on spot instances.",
    ),
    (
        "unrelated",
        "decision",
        "Dashboards are built in Metabase.",
        "The marketing site is built in Webflow.",
    ),
    (
        "unrelated",
        "constraint",
        "Only clinicians may view unredacted lab results.",
        "Only finance may export invoices.",
    ),
    (
        "unrelated",
        "fact",
        "Firmware updates are delivered over the air.",
        "Game patches are delivered through the Steam depot.",
    ),
    # ---------------------------------------------------------------- complementary
    (
        "complementary",
        "fact",
        "The feature store is refreshed every 6 hours from the warehouse.",
        "The feature store serves online features from Redis.",
    ),
    (
        "complementary",
        "fact",
        "Model training runs on spot instances.",
        "Model training logs metrics to MLflow.",
    ),
    (
        "complementary",
        "constraint",
        "Only clinicians may view unredacted lab results.",
        "Lab results are redacted by a rules engine before support sees them.",
    ),
    (
        "complementary",
        "fact",
        "The game server is authoritative for player positions.",
        "The game server runs at 30 ticks per second.",
    ),
    (
        "complementary",
        "fact",
        "Sensor readings are batched on the device and uploaded every minute.",
        "Sensor readings are also written to a ring buffer on the device for an hour.",
    ),
    (
        "complementary",
        "decision",
        "We store embeddings in pgvector.",
        "We do not store raw documents next to the embeddings.",
    ),
    (
        "complementary",
        "fact",
        "Leaderboards are computed in batch once a day.",
        "Leaderboards are split by region and season.",
    ),
    (
        "complementary",
        "fact",
        "Dashboards are built in Metabase.",
        "Dashboards read from the analytics replica, never from the primary.",
    ),
]
