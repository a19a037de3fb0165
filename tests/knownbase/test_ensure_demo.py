"""ensure_demo: development only, and a password the user chose survives the next `make run`."""

from __future__ import annotations

import re
import stat
from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command

from accounts.models import ApiKey, User
from knownbase.management.commands.ensure_demo import DEMO_EMAIL, marker_path


@pytest.fixture
def data_dir(settings, tmp_path):
    settings.KNOWNBASE_DATA_DIR = tmp_path / "data"
    return settings.KNOWNBASE_DATA_DIR


def run() -> str:
    out = StringIO()
    call_command("ensure_demo", stdout=out)
    return out.getvalue()


def printed_password(output: str) -> str:
    match = re.search(r"^  Password:  (\S+)$", output, re.MULTILINE)
    assert match, output
    return match.group(1)


def can_log_in(password: str) -> bool:
    return authenticate(email=DEMO_EMAIL, password=password) is not None


def test_first_run_creates_the_superuser_and_prints_a_working_password(db, data_dir):
    password = printed_password(run())
    user = User.objects.get(email=DEMO_EMAIL)
    assert user.is_superuser and can_log_in(password)
    marker = marker_path()
    assert marker.parent == data_dir
    assert stat.S_IMODE(marker.stat().st_mode) == 0o600
    assert password not in marker.read_text()
    assert user.password not in marker.read_text()


def test_a_password_it_set_is_replaced_on_the_next_run(db, data_dir):
    first = printed_password(run())
    second = printed_password(run())
    assert second != first
    assert can_log_in(second) and not can_log_in(first)
    assert ApiKey.objects.usable().filter(user__email=DEMO_EMAIL).count() == 1


def test_a_password_the_user_changed_is_kept(db, data_dir):
    printed_password(run())
    user = User.objects.get(email=DEMO_EMAIL)
    user.set_password("my own demo password")
    user.save()

    output = run()
    assert "Password:  changed by the user, so kept" in output
    assert f"changepassword {DEMO_EMAIL}" in output
    assert can_log_in("my own demo password")
    # Kept on later runs too, while a new API key is still issued each time.
    assert "changed by the user, so kept" in run()
    assert can_log_in("my own demo password")
    assert ApiKey.objects.usable().filter(user__email=DEMO_EMAIL).count() == 1


def test_an_account_it_has_no_marker_for_is_kept(db, data_dir):
    user = User.objects.create_superuser(DEMO_EMAIL, "set before the marker existed", name="Demo")
    output = run()
    assert "not set by ensure_demo in this data folder, so kept" in output
    assert can_log_in("set before the marker existed")
    assert not marker_path().exists()
    user.refresh_from_db()
    assert user.check_password("set before the marker existed")


def test_refuses_to_run_in_production(db, data_dir, settings):
    settings.PRODUCTION = True
    with pytest.raises(CommandError, match="KNOWNBASE_ENV=production"):
        run()
    assert not User.objects.filter(email=DEMO_EMAIL).exists()
    assert not marker_path().exists()
