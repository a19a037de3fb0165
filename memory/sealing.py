"""Sealed tokens: opaque and tamper-evident, for values a client holds and hands back.

A feed cursor or an export link travels through clients, logs and chat transcripts, so what it holds
(project ids, positions, who asked) must not be readable there, and a token made for one purpose must
never be accepted for another. A token is AES-256-GCM over the JSON payload under a key derived from
SECRET_KEY with HKDF, one key per purpose; the purpose is also authenticated data, so a token sealed
for one purpose fails to open under another. Keys in SECRET_KEY_FALLBACKS still open tokens, so
rotating SECRET_KEY does not break links and cursors already handed out.

Layout: URL-safe base64 (no padding) of version byte ‖ 12-byte random nonce ‖ ciphertext and tag.
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import os
import time
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings

_VERSION = b"\x01"
_NONCE_BYTES = 12
_HKDF_SALT = b"knownbase.sealed.v1"
# Nothing any caller seals comes near this; a longer token is refused before any work.
MAX_TOKEN_CHARS = 4096


class BadToken(Exception):
    """Not a token of this purpose: made up, altered, truncated, or sealed under another key."""


class ExpiredToken(BadToken):
    """A genuine token, older than the caller accepts."""


@functools.lru_cache(maxsize=32)
def _cipher(secret: str, purpose: str) -> AESGCM:
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=_HKDF_SALT, info=purpose.encode()).derive(
        secret.encode()
    )
    return AESGCM(key)


def _associated_data(purpose: str) -> bytes:
    return _VERSION + purpose.encode()


def seal(payload: Mapping[str, Any], purpose: str) -> str:
    """An opaque token holding `payload` (JSON-serialisable) and the time it was sealed."""
    plaintext = json.dumps({"iat": int(time.time()), "d": payload}, separators=(",", ":")).encode()
    nonce = os.urandom(_NONCE_BYTES)
    sealed = _cipher(settings.SECRET_KEY, purpose).encrypt(nonce, plaintext, _associated_data(purpose))
    return base64.urlsafe_b64encode(_VERSION + nonce + sealed).rstrip(b"=").decode()


def unseal(token: str, purpose: str, *, max_age: timedelta | None = None) -> Any:
    """The payload of a token sealed for `purpose`; BadToken (ExpiredToken when only too old)."""
    if not isinstance(token, str) or len(token) > MAX_TOKEN_CHARS:
        raise BadToken("not a token")
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (binascii.Error, ValueError):
        raise BadToken("not base64") from None
    # Only the one text seal() gives: the last character's unused bits (and stray characters the
    # decoder skips) would otherwise let an altered text open as the same token.
    if base64.urlsafe_b64encode(raw).rstrip(b"=").decode() != token:
        raise BadToken("not the canonical text")
    if len(raw) < 1 + _NONCE_BYTES + 16 or raw[:1] != _VERSION:
        raise BadToken("unknown layout")
    nonce, sealed = raw[1 : 1 + _NONCE_BYTES], raw[1 + _NONCE_BYTES :]
    plaintext = _open(nonce, sealed, purpose)
    try:
        envelope = json.loads(plaintext)
    except ValueError:
        raise BadToken("not JSON") from None
    if not isinstance(envelope, dict) or type(envelope.get("iat")) is not int or "d" not in envelope:
        raise BadToken("no envelope")
    if max_age is not None and time.time() - envelope["iat"] > max_age.total_seconds():
        raise ExpiredToken("expired")
    return envelope["d"]


def _open(nonce: bytes, sealed: bytes, purpose: str) -> bytes:
    for secret in [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]:
        try:
            return _cipher(secret, purpose).decrypt(nonce, sealed, _associated_data(purpose))
        except InvalidTag:
            continue
    raise BadToken("does not open under any key")
