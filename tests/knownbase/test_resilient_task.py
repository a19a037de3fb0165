"""Tasks the broker cannot take are never lost (knownbase.celery.ResilientTask): with the broker
unreachable, audit rows and other short work run before the call returns, long jobs in a background
thread that closes its database connections, and the broker is not asked again while the breaker
is open. With the broker up, nothing runs here."""

from __future__ import annotations

import threading
import uuid

import pytest
import redis
from celery.app.task import Task
from django.db import connections

from accounts import audit
from accounts.models import AuditEvent
from knownbase import breaker
from knownbase.celery import ResilientTask, app, finish_unqueued
from memory import store
from memory.models import TransferJob
from tests.celery_broker import broker
from tests.live_mcp import free_port
from tests.mcp_gateway.state import save
from tests.memory.test_transfer_jobs import session

SHARED_REDIS = "redis://127.0.0.1:6379/13"


@pytest.fixture
def broker_down():
    with broker(f"redis://127.0.0.1:{free_port()}/0"):  # nothing listens on a free port
        yield
    assert finish_unqueued(60)


def test_every_task_is_resilient():
    assert all(
        isinstance(task, ResilientTask) for name, task in app.tasks.items() if not name.startswith("celery.")
    )


def test_an_audit_row_is_written_before_the_call_returns(cast, broker_down):
    member = cast.principal(cast.member)
    exported = store.export_content(member, "payments")
    assert exported["project"] == "payments"
    row = AuditEvent.objects.get(action="project.exported")
    assert (row.project_slug, row.actor_id) == ("payments", cast.member.pk)
    assert breaker.redis.is_open


def test_the_broker_is_not_asked_again_while_the_breaker_is_open(cast, broker_down, monkeypatch):
    attempts = []
    original = Task.apply_async

    def counted(self, *args, **kwargs):
        attempts.append(self.name)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Task, "apply_async", counted)
    member = cast.principal(cast.member)
    for _ in range(4):
        audit.record_after_read(member, "project.exported", project_slug="payments")
    assert attempts == ["accounts.tasks.write_audit_event"]  # the first only; the breaker did the rest
    assert AuditEvent.objects.filter(action="project.exported").count() == 4


def test_a_long_job_runs_in_a_thread_that_closes_its_connections(
    cast, transactional_db, broker_down, settings, monkeypatch
):
    settings.TRANSFER_TASK_THRESHOLD = 2
    for i in range(3):
        save(cast, f"Note {i}", f"Body of note {i}")
    closed_by = []
    close_all = connections.close_all

    def recorded():
        closed_by.append(threading.current_thread().name)
        close_all()

    monkeypatch.setattr(connections, "close_all", recorded)
    started = store.start_export(session(cast, cast.member), "payments")  # queued on commit
    assert started["job"] is not None
    assert finish_unqueued(60)
    job = TransferJob.objects.get(public_id=started["job"]["id"])
    assert (job.status, job.progress) == ("succeeded", 3)
    assert any(name.startswith("unqueued-task") for name in closed_by)
    assert AuditEvent.objects.filter(action="project.export_requested").count() == 1


def test_with_the_broker_up_the_task_is_queued_not_run(cast):
    queue = f"knownbase-resilient-{uuid.uuid4().hex[:8]}"
    client = redis.Redis.from_url(SHARED_REDIS)
    try:
        with broker(SHARED_REDIS, queue):
            audit.record_after_read(cast.principal(cast.member), "project.exported", project_slug="payments")
        assert client.llen(queue) == 1
        assert not AuditEvent.objects.filter(action="project.exported").exists()
        assert not breaker.redis.is_open
    finally:
        client.delete(queue)
