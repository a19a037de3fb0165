"""Mail that must not make a page slower for some addresses than for others."""

from __future__ import annotations

from celery import shared_task

from memory import store
from web import mail


@shared_task(acks_late=True)
def send_password_reset(user_id: int) -> bool:
    # Sent from the worker in production, so a reset request answers as fast for an address with an
    # account as for one without: the page's timing does not tell which addresses exist.
    user = store.active_user(store.principal_for_account(), user_id=user_id)
    if user is None or not user.has_usable_password():
        return False
    return mail.send_password_reset(user)
