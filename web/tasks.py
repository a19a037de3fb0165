"""Mail that must not make a page slower for some addresses than for others."""

from __future__ import annotations

from celery import shared_task

from memory import store
from web import mail


# Queued for every reset request, with or without an account, and sent from the worker in
# production (or a background thread when there is no broker, knownbase.celery.ResilientTask): the
# request does the same work either way, so neither its status nor its timing tells which
# addresses have an account.
@shared_task(acks_late=True, when_unqueued="thread")
def send_password_reset(user_id: int | None) -> bool:
    if user_id is None:
        return False
    user = store.active_user(store.principal_for_account(), user_id=user_id)
    if user is None or not user.has_usable_password():
        return False
    return mail.send_password_reset(user)
