"""Opaque public ids: a short type prefix and 16 random base62 characters, never the primary key."""

from __future__ import annotations

import secrets
import string

_ALPHABET = string.ascii_letters + string.digits
ID_LENGTH = 16


def new_public_id(prefix: str) -> str:
    return prefix + "".join(secrets.choice(_ALPHABET) for _ in range(ID_LENGTH))


def new_note_id() -> str:
    return new_public_id("n_")


def looks_like_note_id(value: str) -> bool:
    body = value[2:]
    return value.startswith("n_") and len(body) == ID_LENGTH and all(c in _ALPHABET for c in body)
