"""Note ids: the opaque public form of accounts.ids with the `n_` prefix."""

from __future__ import annotations

from accounts.ids import ALPHABET, ID_LENGTH, new_public_id


def new_note_id() -> str:
    return new_public_id("n_")


def looks_like_note_id(value: str) -> bool:
    body = value[2:]
    return value.startswith("n_") and len(body) == ID_LENGTH and all(c in ALPHABET for c in body)
