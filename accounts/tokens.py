"""Signed, expiring tokens for links sent by email (address verification, invitations).

The signature (SECRET_KEY, one salt per purpose) makes a link unforgeable and lets a stale or
tampered one be refused before any lookup; what a link may still do is decided by the rows it names.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core import signing

_VERIFY_SALT = "knownbase.verify-email"
_INVITATION_SALT = "knownbase.invitation"


def email_verification_max_age() -> timedelta:
    return timedelta(hours=int(settings.EMAIL_VERIFICATION_MAX_AGE_HOURS))


def invitation_max_age() -> timedelta:
    return timedelta(days=int(settings.INVITATION_MAX_AGE_DAYS))


def email_verification_token(user_id: int, email: str) -> str:
    # The address is part of what is signed, so a link stops working if the address changes.
    return signing.TimestampSigner(salt=_VERIFY_SALT).sign_object({"u": user_id, "e": email.lower()})


def read_email_verification_token(token: str) -> tuple[int, str] | None:
    """(user id, address) the token was issued for, or None when it is forged, garbled or expired."""
    try:
        data: Any = signing.TimestampSigner(salt=_VERIFY_SALT).unsign_object(
            token, max_age=email_verification_max_age()
        )
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int) or not isinstance(data.get("e"), str):
        return None
    return data["u"], data["e"]


def sign_invitation_secret(secret: str) -> str:
    return signing.TimestampSigner(salt=_INVITATION_SALT).sign(secret)


def read_invitation_token(token: str) -> str | None:
    """The random secret inside an invitation link, or None when the link is forged or too old."""
    try:
        return signing.TimestampSigner(salt=_INVITATION_SALT).unsign(token, max_age=invitation_max_age())
    except (signing.BadSignature, ValueError, TypeError):
        return None
