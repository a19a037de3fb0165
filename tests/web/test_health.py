from __future__ import annotations


def test_healthz_answers_without_dependencies(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_readyz_checks_the_database(client, db):
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json()["checks"] == {"database": "ok"}


def test_readyz_reports_redis_down_but_stays_ready(client, db, settings):
    # Every request is still answered without Redis (docs/production.md, "Degraded modes"), so the
    # balancer keeps the node: the answer says degraded, with the reason.
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/readyz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["redis"].startswith("error")


def test_readyz_with_the_real_redis(client, db, settings):
    settings.REDIS_URL = "redis://127.0.0.1:6379/0"
    assert client.get("/readyz").json()["checks"]["redis"] == "ok"
