"""Production mode refuses unsafe settings; checked in a fresh interpreter per case."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

GOOD_SECRET = "k" * 40


def import_settings(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "KNOWNBASE_ENV", "REDIS_URL")
    }
    return subprocess.run(
        [sys.executable, "-c", "import knownbase.settings as s; print(s.DEBUG, s.CELERY_BROKER_URL)"],
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"KNOWNBASE_ENV": "production", "SECRET_KEY": GOOD_SECRET, "DEBUG": "1"}, "DEBUG must be off"),
        ({"KNOWNBASE_ENV": "production"}, "SECRET_KEY must be set"),
        ({"KNOWNBASE_ENV": "production", "SECRET_KEY": "short"}, "SECRET_KEY must be set"),
        ({"KNOWNBASE_ENV": "staging"}, "KNOWNBASE_ENV must be"),
        ({"DEBUG": "perhaps"}, "DEBUG must be one of"),
        ({"REDIS_URL": "http://x"}, "REDIS_URL must be a URL"),
    ],
)
def test_bad_settings_refuse_to_load(env, message):
    result = import_settings(**env)
    assert result.returncode != 0
    assert message in result.stderr


def test_production_with_safe_settings_loads():
    result = import_settings(KNOWNBASE_ENV="production", SECRET_KEY=GOOD_SECRET)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "memory://"]


def test_redis_url_switches_celery_to_the_broker():
    result = import_settings(REDIS_URL="redis://127.0.0.1:6379/3")
    assert result.stdout.split() == ["True", "redis://127.0.0.1:6379/3"]
