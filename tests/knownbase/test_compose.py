"""docker-compose.yml runs the production shape; Docker is not here, so its structure is checked.

Two web processes behind a balancer, a Celery worker for the default queue and one for the bulk
queue, Redis and PostgreSQL with pgvector, each with a health check; every app process gets the same settings; the image carries every app it runs.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.conf import settings
from django.urls import resolve

ROOT = Path(__file__).resolve().parents[2]
APP_SERVICES = ("migrate", "web-1", "web-2", "worker", "worker-bulk")
WORKERS = ("worker", "worker-bulk")
WEB_SERVICES = ("web-1", "web-2")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return loaded


def test_the_production_shape_and_nothing_else(compose):
    services = compose["services"]
    assert set(services) == {"db", "redis", "migrate", "web-1", "web-2", "worker", "worker-bulk", "lb"}
    assert services["db"]["image"].startswith("pgvector/pgvector:")
    assert services["redis"]["image"].startswith("redis:")
    assert "uvicorn knownbase.asgi:application" in services["web-1"]["command"]
    for name in WORKERS:
        assert services[name]["command"].startswith("celery -A knownbase worker"), name
    # Only the balancer is reachable from outside; the web processes are behind it.
    assert [name for name, service in services.items() if "ports" in service] == ["lb"]


def test_every_long_running_service_has_a_health_check(compose):
    services = compose["services"]
    for name in ("db", "redis", "web-1", "web-2", *WORKERS, "lb"):
        test = services[name]["healthcheck"]["test"]
        assert test[0] in ("CMD", "CMD-SHELL") and len(test) > 1, name
    assert "pg_isready" in services["db"]["healthcheck"]["test"][1]


def test_web_health_check_asks_readiness_at_a_route_that_exists(compose):
    for name in WEB_SERVICES:
        probe = " ".join(compose["services"][name]["healthcheck"]["test"])
        url = re.search(r"http://127\.0\.0\.1:8000(/\w+)", probe)
        assert url is not None, probe
        assert resolve(url.group(1)).url_name == "readyz"
        # As SITE_URL's host, which settings always allow: a deployment's own ALLOWED_HOSTS (without
        # 127.0.0.1) would otherwise answer the probe 400 and keep the balancer from starting.
        assert "os.environ['SITE_URL']" in probe and "'Host': host" in probe


def test_the_balancer_checks_itself_at_a_location_it_answers(compose):
    probe = " ".join(compose["services"]["lb"]["healthcheck"]["test"])
    location = re.search(r"http://127\.0\.0\.1(/[\w-]+)", probe)
    assert location is not None, probe
    assert f"location = {location.group(1)} {{" in compose["configs"]["lb"]["content"]


def test_app_processes_wait_for_healthy_dependencies_and_one_migration(compose):
    services = compose["services"]
    assert services["migrate"]["command"] == "python manage.py migrate --noinput"
    assert services["migrate"]["depends_on"]["db"]["condition"] == "service_healthy"
    for name in (*WEB_SERVICES, *WORKERS):
        depends = services[name]["depends_on"]
        assert depends["db"]["condition"] == "service_healthy", name
        assert depends["redis"]["condition"] == "service_healthy", name
        assert depends["migrate"]["condition"] == "service_completed_successfully", name
        # Two web processes migrating at once would race: only `migrate` does.
        assert "migrate" not in services[name]["command"], name
    for web in WEB_SERVICES:
        assert services["lb"]["depends_on"][web]["condition"] == "service_healthy"


def test_every_app_process_shares_one_configuration(compose):
    services = compose["services"]
    environments = [services[name]["environment"] for name in APP_SERVICES]
    assert all(environment == environments[0] for environment in environments)
    env = environments[0]
    assert env["KNOWNBASE_ENV"] == "production"
    assert re.fullmatch(r"postgresql://postgres:.+@db:5432/knownbase", env["DATABASE_URL"])
    assert env["REDIS_URL"].startswith("redis://redis:6379/")
    # The same key everywhere, and none at all stops `docker compose up` (`:?`).
    assert env["SECRET_KEY"].startswith("${SECRET_KEY:?")
    assert env["TRUSTED_PROXY_COUNT"] == "1"  # the balancer appends X-Forwarded-For
    assert set(env) <= _documented_settings()


def test_the_balancer_spreads_over_both_web_processes(compose):
    config = compose["configs"]["lb"]["content"]
    assert re.findall(r"server (web-\d):8000", config) == list(WEB_SERVICES)
    assert "proxy_buffering off" in config  # MCP answers may stream
    assert "$$proxy_add_x_forwarded_for" in config  # `$$`: compose would interpolate a single `$`
    target = compose["services"]["lb"]["configs"][0]
    assert target["source"] == "lb" and target["target"].startswith("/etc/nginx/")


def test_bulk_work_has_a_worker_of_its_own(compose):
    """The default worker consumes the default queue only (mail, exports, the beat schedule), the
    bulk worker the bulk queue only: an import's thousands of embeddings never hold a slot mail needs."""
    services = compose["services"]
    default, bulk = services["worker"]["command"], services["worker-bulk"]["command"]
    assert "-Q" not in default.split() and " -B" in default  # task_default_queue = CELERY_QUEUE
    assert f"-Q {settings.CELERY_BULK_QUEUE}" in bulk and " -B" not in bulk
    assert settings.CELERY_BULK_QUEUE != settings.CELERY_TASK_DEFAULT_QUEUE
    routes = settings.CELERY_TASK_ROUTES
    assert routes["memory.tasks.embed_note_batch"] == {"queue": settings.CELERY_BULK_QUEUE}
    assert "memory.tasks.embed_note" not in routes and "web.tasks.send_password_reset" not in routes


def test_the_image_carries_every_app_it_runs():
    dockerfile = (ROOT / "Dockerfile").read_text()
    copied = set(re.findall(r"^COPY (\S+) \./", dockerfile, flags=re.MULTILINE))
    local_apps = {app for app in settings.INSTALLED_APPS if (ROOT / app / "apps.py").exists()}
    assert local_apps, "no local apps found"
    assert local_apps | {"templates", "manage.py"} <= copied


def _documented_settings() -> set[str]:
    table = (ROOT / "docs" / "settings.md").read_text()
    return set(re.findall(r"^\| `([A-Z_]+)` \|", table, flags=re.MULTILINE))


def test_the_published_port_and_site_url_follow_one_port_variable(compose):
    # `PORT=8100 docker compose up` must not publish :8100 while every link still names :8000.
    assert compose["services"]["lb"]["ports"] == ["${PORT:-8000}:80"]
    assert compose["x-app-env"]["SITE_URL"] == "${SITE_URL:-http://localhost:${PORT:-8000}}"
