"""The development SECRET_KEY: random, made once per data folder, never a constant in the code.

A key written in the source is public, and everything signed or sealed with it (sessions, CSRF tokens,
export links, feed cursors) can then be forged by anyone who can reach the server. Production takes
SECRET_KEY from the environment and refuses to start without one; development generates one into
KNOWNBASE_DATA_DIR, readable by its owner only, and every process using that folder (web, worker,
commands) reads the same key.

Imported by the settings module, so it may use nothing that needs Django's settings.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import tempfile
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

FILE_NAME = "secret_key"
_KEY_BYTES = 48  # 64 URL-safe characters
_MIN_LENGTH = 50  # what Django's deployment check (security.W009) asks of a key


def development_secret_key(data_dir: Path) -> str:
    """The key stored in `data_dir`, generated there first if there is none yet."""
    path = data_dir / FILE_NAME
    if not path.exists():
        data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        _create(path)
    return _read(path)


def _create(path: Path) -> None:
    # Written whole to a private temporary file, then linked into place: a process starting at the
    # same moment never reads a half-written key, and the first link wins for everyone.
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{FILE_NAME}.")  # mode 0600
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_urlsafe(_KEY_BYTES) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        # FileExistsError: another process made the key first, and theirs is the one.
        with contextlib.suppress(FileExistsError):
            os.link(temporary, path)
    finally:
        Path(temporary).unlink()


def _read(path: Path) -> str:
    if stat.S_IMODE(path.stat().st_mode) & 0o077:
        # A copy or a restore may have widened it; the key is a password to every signed link.
        path.chmod(0o600)
    key = path.read_text().strip()
    if len(key) < _MIN_LENGTH or len(set(key)) < 5:
        raise ImproperlyConfigured(
            f"{path} does not hold a usable secret key: delete it and a new one is generated at start-up "
            "(links and sessions signed with the old key stop working)."
        )
    return key
