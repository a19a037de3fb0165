from __future__ import annotations

import hashlib
from datetime import timedelta

from django.utils import timezone

from accounts import actions
from accounts.models import ApiKey, AuditEvent


def test_issue_stores_only_lookup_and_digest(cast):
    key, raw = actions.issue_api_key(cast.acme, cast.member, name="laptop")
    assert raw.startswith("kb_") and len(raw) > 50
    stored = ApiKey.objects.get(pk=key.pk)
    assert stored.digest == hashlib.sha256(raw.encode()).hexdigest()
    assert raw not in {stored.lookup, stored.digest, stored.name}
    assert raw.startswith(stored.display_prefix)
    assert AuditEvent.objects.filter(action="api_key.created", object_id=stored.display_prefix).exists()


def test_authenticate_accepts_the_raw_key_only(cast):
    key, raw = actions.issue_api_key(cast.acme, cast.member)
    assert ApiKey.authenticate(raw) == key
    assert ApiKey.authenticate(raw[:-1] + ("A" if raw[-1] != "A" else "B")) is None
    assert ApiKey.authenticate(raw + "x") is None
    assert ApiKey.authenticate("kb_") is None
    assert ApiKey.authenticate("Bearer " + raw) is None


def test_revoked_key_stops_working(cast):
    key, raw = actions.issue_api_key(cast.acme, cast.member)
    actions.revoke_api_key(key)
    assert ApiKey.authenticate(raw) is None
    assert AuditEvent.objects.filter(action="api_key.revoked").count() == 1


def test_expired_key_stops_working(cast):
    now = timezone.now()
    _, raw = actions.issue_api_key(cast.acme, cast.member, expires_at=now + timedelta(hours=1))
    assert ApiKey.authenticate(raw, now=now) is not None
    assert ApiKey.authenticate(raw, now=now + timedelta(hours=2)) is None


def test_inactive_user_key_stops_working(cast):
    _, raw = actions.issue_api_key(cast.acme, cast.member)
    cast.member.is_active = False
    cast.member.save()
    assert ApiKey.authenticate(raw) is None


def test_last_used_is_written_at_most_once_a_minute(cast):
    key, _ = actions.issue_api_key(cast.acme, cast.member)
    t0 = timezone.now()
    key.touch(now=t0)
    assert ApiKey.objects.get(pk=key.pk).last_used_at == t0
    stale = ApiKey.objects.get(pk=key.pk)
    stale.touch(now=t0 + timedelta(seconds=30))
    assert ApiKey.objects.get(pk=key.pk).last_used_at == t0
    stale.touch(now=t0 + timedelta(seconds=61))
    assert ApiKey.objects.get(pk=key.pk).last_used_at == t0 + timedelta(seconds=61)


def test_a_racing_stale_copy_does_not_rewrite_a_fresh_timestamp(cast):
    key, _ = actions.issue_api_key(cast.acme, cast.member)
    t0 = timezone.now()
    first, second = ApiKey.objects.get(pk=key.pk), ApiKey.objects.get(pk=key.pk)
    first.touch(now=t0)
    second.touch(now=t0 + timedelta(seconds=5))  # its in-memory copy is stale; the conditional UPDATE holds
    assert ApiKey.objects.get(pk=key.pk).last_used_at == t0
