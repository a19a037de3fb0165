"""Opaque public ids: a short type prefix and 16 random base62 characters, never the primary key."""

from __future__ import annotations

import secrets
import string

ALPHABET = string.ascii_letters + string.digits
ID_LENGTH = 16


def new_public_id(prefix: str) -> str:
    return prefix + "".join(secrets.choice(ALPHABET) for _ in range(ID_LENGTH))
