"""Mail the web pages send: address verification, password reset and invitations.

Links are absolute on SITE_URL, through edge.site (never on the request's Host header, which a
client chooses)."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from edge.site import absolute_url
from memory import store
from memory.store import User

log = logging.getLogger(__name__)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _send(to: str, subject: str, template: str, context: dict[str, Any]) -> bool:
    """Send one message; False (logged) when the mail server refuses or is down, so a page can say
    so instead of failing."""
    body = render_to_string(template, {"site_url": absolute_url("/"), **context})
    try:
        send_mail(_one_line(subject), body, None, [to])
    except Exception:
        log.exception("could not send %s", template)
        return False
    return True


def send_verification(user: User) -> bool:
    link = store.email_verification(store.principal_for_account(user))
    return _send(
        link["email"],
        "Confirm your email address for Knownbase",
        "web/email/verify_email.txt",
        {
            "link": absolute_url(reverse("web:verify-email-confirm", args=[link["token"]])),
            "hours": link["hours"],
        },
    )


def send_password_reset(user: User) -> bool:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return _send(
        user.email,
        "Reset your Knownbase password",
        "web/email/password_reset.txt",
        {
            "link": absolute_url(reverse("web:password-reset-confirm", args=[uid, token])),
            "hours": settings.PASSWORD_RESET_TIMEOUT // 3600,
        },
    )


def send_invitation(email: str, token: str, *, team: str, role: str, inviter: str, days: int) -> bool:
    """The invitation link to `email`; `inviter` is the inviting member's name or address."""
    return _send(
        email,
        f"{inviter} invited you to {team} on Knownbase",
        "web/email/invitation.txt",
        {
            "link": absolute_url(reverse("web:invitation", args=[token])),
            "team": team,
            "role": role,
            "inviter": inviter,
            "days": days,
        },
    )
