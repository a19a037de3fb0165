"""Settings read from the environment, each case checked in a fresh interpreter (no test set-up)."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.exceptions import ImproperlyConfigured

from tests import tiers

ROOT = Path(__file__).resolve().parents[2]
# Most cases import the settings in a fresh interpreter: a process each.
pytestmark = pytest.mark.slow
GOOD_SECRET = "kb-test-5f0c9a1e7d3b48c2a6e1f9d07b3c5a8e"
# Every variable these tests set or whose default they check; the rest of the environment is kept.
CONTROLLED = (
    "DEBUG",
    "SECRET_KEY",
    "KNOWNBASE_ENV",
    "REDIS_URL",
    "DATABASE_URL",
    "ALLOWED_HOSTS",
    "SITE_URL",
    "DB_POOL",
    "DB_POOL_MIN_SIZE",
    "DB_POOL_MAX_SIZE",
    "DB_POOL_TIMEOUT_SECONDS",
    "DB_CONNECT_TIMEOUT_SECONDS",
    "STATIC_ROOT",
    "EMAIL_URL",
    "DEFAULT_FROM_EMAIL",
    "TRUST_X_FORWARDED_FOR",
    "TRUSTED_PROXY_COUNT",
)


def import_settings(
    expression: str = "[s.DEBUG, s.CELERY_BROKER_URL]", **env: str
) -> subprocess.CompletedProcess[str]:
    tiers.require(tiers.SLOW)
    clean = {k: v for k, v in os.environ.items() if k not in CONTROLLED}
    return subprocess.run(
        [sys.executable, "-c", f"import json, knownbase.settings as s; print(json.dumps({expression}))"],
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def settings_value(expression: str, **env: str) -> Any:
    result = import_settings(expression, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"KNOWNBASE_ENV": "production", "SECRET_KEY": GOOD_SECRET, "DEBUG": "1"}, "DEBUG must be off"),
        ({"KNOWNBASE_ENV": "production"}, "SECRET_KEY must be set"),
        ({"KNOWNBASE_ENV": "production", "SECRET_KEY": "short"}, "SECRET_KEY must be set"),
        ({"KNOWNBASE_ENV": "production", "SECRET_KEY": "x" * 50}, "SECRET_KEY must be set"),
        (
            {"KNOWNBASE_ENV": "production", "SECRET_KEY": "django-insecure-" + GOOD_SECRET},
            "SECRET_KEY must be set",
        ),
        ({"KNOWNBASE_ENV": "staging"}, "KNOWNBASE_ENV must be"),
        ({"DEBUG": "perhaps"}, "DEBUG must be one of"),
        ({"REDIS_URL": "http://x"}, "REDIS_URL must be a URL"),
        ({"DB_POOL": "sometimes"}, "DB_POOL must be one of"),
        ({"DB_POOL_MIN_SIZE": "5", "DB_POOL_MAX_SIZE": "4"}, "DB_POOL_MAX_SIZE (4) must be at least"),
        ({"DB_POOL_MAX_SIZE": "0"}, "DB_POOL_MAX_SIZE must be at least 1"),
        ({"EMAIL_URL": "smtp://mail.example.test?tls=perhaps"}, "EMAIL_URL option tls"),
    ],
)
def test_bad_settings_refuse_to_load(env, message):
    result = import_settings(**env)
    assert result.returncode != 0
    assert message in result.stderr


def test_production_with_safe_settings_loads():
    assert settings_value(
        "[s.DEBUG, s.CELERY_BROKER_URL]", KNOWNBASE_ENV="production", SECRET_KEY=GOOD_SECRET
    ) == [
        False,
        "memory://",
    ]


def test_production_cookies_are_secure_and_development_ones_work_on_http():
    expression = "[s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SESSION_COOKIE_HTTPONLY]"
    assert settings_value(expression, KNOWNBASE_ENV="production", SECRET_KEY=GOOD_SECRET) == [
        True,
        True,
        True,
    ]
    assert settings_value(expression) == [False, False, True]


def test_email_url_configures_smtp_and_the_sender_follows_the_site():
    assert settings_value(
        "[s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_USE_TLS, s.DEFAULT_FROM_EMAIL]",
        EMAIL_URL="smtp://u:p@mail.example.test:587?tls=1",
        SITE_URL="https://kb.example.test",
    ) == [
        "django.core.mail.backends.smtp.EmailBackend",
        "mail.example.test",
        587,
        True,
        "Knownbase <noreply@kb.example.test>",
    ]
    assert settings_value("s.EMAIL_BACKEND") == "django.core.mail.backends.console.EmailBackend"


def test_redis_url_switches_celery_to_the_broker():
    assert settings_value("[s.DEBUG, s.CELERY_BROKER_URL]", REDIS_URL="redis://127.0.0.1:6379/3") == [
        True,
        "redis://127.0.0.1:6379/3",
    ]


def test_testserver_is_not_an_allowed_host_without_test_set_up():
    hosts = settings_value("s.ALLOWED_HOSTS")
    assert "testserver" not in hosts
    assert "localhost" in hosts
    # The test client's host comes from Django's test set-up, which pytest-django runs for this process.
    from django.conf import settings

    assert "testserver" in settings.ALLOWED_HOSTS


DB = "s.DATABASES['default']"


def test_embedded_database_uses_a_pool_by_default():
    default = settings_value(DB)
    assert default["ENGINE"] == "knownbase.db_backend"
    assert default["CONN_MAX_AGE"] == 0  # Django refuses a pool with persistent connections
    # A web node waits 2 s at most for a connection, and 2 s for the server to answer a connect.
    assert default["OPTIONS"]["pool"] == {"min_size": 0, "max_size": 10, "timeout": 2.0}
    assert default["OPTIONS"]["connect_timeout"] == 2
    assert default["OPTIONS"]["embedded_data_dir"]


def test_pool_size_and_timeout_come_from_the_environment():
    default = settings_value(
        DB,
        DATABASE_URL="postgresql://kb:pw@db.internal:5433/knownbase",
        DB_POOL_MIN_SIZE="2",
        DB_POOL_MAX_SIZE="4",
        DB_POOL_TIMEOUT_SECONDS="3",
        DB_CONNECT_TIMEOUT_SECONDS="5",
    )
    # The project's backend (its fail-fast pool) for a server of its own too.
    assert default["ENGINE"] == "knownbase.db_backend"
    assert default["OPTIONS"] == {
        "pool": {"min_size": 2, "max_size": 4, "timeout": 3.0},
        "connect_timeout": 5,
    }
    assert default["CONN_MAX_AGE"] == 0


def test_pool_can_be_turned_off():
    default = settings_value(DB, DB_POOL="off")
    assert "pool" not in default["OPTIONS"]
    assert default["CONN_MAX_AGE"] == 0


def test_docker_image_and_compose_run_in_production_and_need_a_secret_key():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^ENV .*\bKNOWNBASE_ENV=production\b", dockerfile, re.MULTILINE)
    assert "SECRET_KEY" not in re.findall(r"^ENV (.*)$", dockerfile, re.MULTILINE)[0]

    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    for name in ("migrate", "web-1", "web-2", "worker"):  # every process running the app
        environment = compose["services"][name]["environment"]
        assert environment["KNOWNBASE_ENV"] == "production"
        # ${VAR:?message} makes `docker compose` stop with the message when VAR is unset or empty.
        assert re.fullmatch(r"\$\{SECRET_KEY:\?[^}]+\}", environment["SECRET_KEY"]), environment


# --- the development secret key --------------------------------------------------------------------


def test_development_generates_a_random_key_once_per_data_folder(tmp_path):
    first, second = tmp_path / "one", tmp_path / "two"
    key = settings_value("s.SECRET_KEY", KNOWNBASE_DATA_DIR=str(first))
    stored = first / "secret_key"
    assert stored.read_text().strip() == key
    assert stat.S_IMODE(stored.stat().st_mode) == 0o600
    assert len(key) >= 50 and len(set(key)) >= 20
    # Every process of that folder (web, worker, commands) reads the same key; another folder has its own.
    assert settings_value("s.SECRET_KEY", KNOWNBASE_DATA_DIR=str(first)) == key
    assert settings_value("s.SECRET_KEY", KNOWNBASE_DATA_DIR=str(second)) != key
    # No key is written into the code: the settings source holds no literal that could be one.
    source = (ROOT / "knownbase" / "settings.py").read_text()
    assert key not in source
    assert not re.search(r"^SECRET_KEY\s*=\s*['\"]", source, re.MULTILINE)


def test_secret_key_from_the_environment_wins_and_writes_nothing(tmp_path):
    assert (
        settings_value("s.SECRET_KEY", SECRET_KEY=GOOD_SECRET, KNOWNBASE_DATA_DIR=str(tmp_path))
        == GOOD_SECRET
    )
    assert not (tmp_path / "secret_key").exists()


def test_production_without_a_key_generates_none(tmp_path):
    result = import_settings(KNOWNBASE_ENV="production", KNOWNBASE_DATA_DIR=str(tmp_path))
    assert result.returncode != 0 and "SECRET_KEY must be set" in result.stderr
    assert not (tmp_path / "secret_key").exists()


def test_production_refuses_the_development_default_earlier_versions_shipped():
    result = import_settings(KNOWNBASE_ENV="production", SECRET_KEY="dev-only-insecure-secret-key-change-me")
    assert result.returncode != 0 and "SECRET_KEY must be set" in result.stderr


def test_a_widened_key_file_is_made_private_again_and_a_broken_one_refused(tmp_path):
    from knownbase.secret_key import development_secret_key

    key = development_secret_key(tmp_path)
    stored = tmp_path / "secret_key"
    stored.chmod(0o644)
    assert development_secret_key(tmp_path) == key
    assert stat.S_IMODE(stored.stat().st_mode) == 0o600
    stored.write_text("short\n")
    with pytest.raises(ImproperlyConfigured, match="delete it"):
        development_secret_key(tmp_path)


def test_processes_starting_together_agree_on_one_key(tmp_path):
    from knownbase.secret_key import development_secret_key

    folder = tmp_path / "fresh"
    barrier = threading.Barrier(8)
    keys: list[str] = []

    def start() -> None:
        barrier.wait(timeout=10)
        keys.append(development_secret_key(folder))

    threads = [threading.Thread(target=start) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(keys) == 8 and len(set(keys)) == 1
    assert sorted(path.name for path in folder.iterdir()) == ["secret_key"]  # no temporary file left


def test_trusted_proxy_count_and_the_earlier_switch():
    assert settings_value("s.TRUSTED_PROXY_COUNT") == 0
    assert settings_value("s.TRUSTED_PROXY_COUNT", TRUST_X_FORWARDED_FOR="true") == 1
    assert settings_value("s.TRUSTED_PROXY_COUNT", TRUST_X_FORWARDED_FOR="true", TRUSTED_PROXY_COUNT="2") == 2
    assert settings_value("s.TRUSTED_PROXY_COUNT", TRUSTED_PROXY_COUNT="0", TRUST_X_FORWARDED_FOR="true") == 0
    result = import_settings(TRUSTED_PROXY_COUNT="-1")
    assert result.returncode != 0 and "TRUSTED_PROXY_COUNT must be at least 0" in result.stderr


@pytest.mark.parametrize(
    ("env", "message"),
    [
        (
            {"TRANSFER_JOB_HEARTBEAT_SECONDS": "10", "TRANSFER_JOB_SILENT_SECONDS": "20"},
            "at least three times TRANSFER_JOB_HEARTBEAT_SECONDS",
        ),
        ({"TRANSFER_JOB_HEARTBEAT_SECONDS": "0"}, "TRANSFER_JOB_HEARTBEAT_SECONDS must be at least 1"),
        ({"CELERY_QUEUE": "work", "CELERY_BULK_QUEUE": "work"}, "CELERY_BULK_QUEUE must differ"),
    ],
)
def test_job_settings_that_would_fail_live_jobs_or_merge_the_queues_refuse_to_load(env, message):
    result = import_settings(**env)
    assert result.returncode != 0
    assert message in result.stderr


def test_bulk_work_is_routed_to_the_bulk_queue_named_in_the_environment():
    routes = settings_value("s.CELERY_TASK_ROUTES", CELERY_BULK_QUEUE="slow-lane")
    assert routes["memory.tasks.embed_note_batch"] == {"queue": "slow-lane"}
    assert "sweep-transfer-jobs" in settings_value("list(s.CELERY_BEAT_SCHEDULE)")
