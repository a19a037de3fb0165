"""The Idempotency-Key header on every POST of /api/v1, with the semantics of the tools' idempotency_key:
a retry with the same key and the same request replays the first answer (status and body) and writes
nothing; the same key with another request is 400 invalid_argument and writes nothing; a key belongs
to one credential (and its team), so nobody else's same key collides with it."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest

from accounts.models import ApiKey, AuditEvent
from memory import store
from memory.models import IdempotencyRecord, Note, Project, TransferJob
from tests.api.conftest import Api
from tests.api.schema import operations
from tests.mcp_gateway.state import db_state, save

Request = tuple[str, dict[str, Any]]  # path, body


@dataclass(frozen=True)
class Post:
    """One POST endpoint: a request and another request, prepared on the cast's data."""

    operation: str
    prepare: Callable[[Any], tuple[Request, Request]]
    manager: bool = False  # needs an owner's key


def _deleted_note(cast: Any, title: str) -> str:
    note_id = save(cast, title, f"{title} body")
    store.delete_note(cast.principal(cast.member), note_id)
    return note_id


def _edited_note(cast: Any) -> str:
    note_id = save(cast, "Deploys", "Deploys happen on Tuesdays.")
    store.update_note(cast.principal(cast.member), note_id, body="Deploys happen on Thursdays.")
    return note_id


def _document(cast: Any) -> dict[str, Any]:
    save(cast, "Exported", "Exported body")
    content = store.export_content(cast.principal(cast.member), "payments")["content"]
    assert isinstance(content, dict)
    return dict(content)


def _patch(cast: Any) -> tuple[Request, Request]:
    path = f"/notes/{save(cast, 'Runbook', 'Step one.')}/patch"
    return (path, {"op": "append", "text": "Step two."}), (path, {"op": "append", "text": "Step 2."})


def _restore(cast: Any) -> tuple[Request, Request]:
    first, other = _deleted_note(cast, "Gone"), _deleted_note(cast, "Also gone")
    return (f"/notes/{first}/restore", {}), (f"/notes/{other}/restore", {})


def _restore_revision(cast: Any) -> tuple[Request, Request]:
    path = f"/notes/{_edited_note(cast)}/revisions/1/restore"
    return (path, {}), (path, {"expected_version": 2})


def _link(cast: Any) -> tuple[Request, Request]:
    first, second = save(cast, "A", "Note A."), save(cast, "B", "Note B.")
    path = f"/notes/{first}/links"
    return (path, {"to_id": second, "kind": "relates_to"}), (path, {"to_id": second, "kind": "depends_on"})


def _rename_tag(cast: Any) -> tuple[Request, Request]:
    save(cast, "Tagged", "Tagged body", tags=["deploy"])
    path = "/projects/payments/tags/rename"
    return (path, {"old": "deploy", "new": "release"}), (path, {"old": "deploy", "new": "shipping"})


def _code_change(cast: Any) -> tuple[Request, Request]:
    save(cast, "Bound", "Bound to billing.", paths=["billing/**"])
    path = "/projects/payments/code-changes"
    return (path, {"commit": "abc1234", "paths": ["billing/a.py"]}), (
        path,
        {"commit": "abc1235", "paths": ["billing/a.py"]},
    )


def _confirm(cast: Any) -> tuple[Request, Request]:
    first = save(cast, "Bound", "Bound to billing.", paths=["billing/**"])
    other = save(cast, "Also bound", "Also bound to billing.", paths=["billing/**"])
    store.report_code_change(cast.principal(cast.member), "payments", "abc1234", ["billing/a.py"])
    return (f"/notes/{first}/confirm", {}), (f"/notes/{other}/confirm", {})


def _import(cast: Any) -> tuple[Request, Request]:
    document = _document(cast)
    return ("/import", {"document": document, "slug": "imported"}), (
        "/import",
        {"document": document, "slug": "imported-again"},
    )


def _failed_export(cast: Any) -> str:
    job = TransferJob.objects.create(
        team=cast.acme,
        user=cast.member,
        project=cast.payments,
        credential_id="gone",
        kind=TransferJob.Kind.EXPORT,
        format="json",
        status=TransferJob.Status.FAILED,
        error="The worker stopped while exporting; start it again.",
    )
    return job.public_id


def _retry(cast: Any) -> tuple[Request, Request]:
    first, other = _failed_export(cast), _failed_export(cast)
    return (f"/transfers/{first}/retry", {}), (f"/transfers/{other}/retry", {})


POSTS = [
    Post(
        "create_project",
        lambda c: (("/projects", {"name": "Billing"}), ("/projects", {"name": "Billing v2"})),
    ),
    Post("rename_tag", _rename_tag),
    Post(
        "create_note",
        lambda c: (
            ("/projects/payments/notes", {"title": "Cache", "body": "Cache for 5 minutes."}),
            ("/projects/payments/notes", {"title": "Cache", "body": "Cache for 10 minutes."}),
        ),
    ),
    Post("patch_note", _patch),
    Post("restore_note", _restore),
    Post("restore_revision", _restore_revision),
    Post("create_link", _link),
    Post(
        "remember",
        lambda c: (
            ("/projects/payments/remember", {"content": "Deploys happen on Tuesdays."}),
            ("/projects/payments/remember", {"content": "Deploys happen on Tuesdays.", "type": "decision"}),
        ),
    ),
    Post(
        "checkpoint",
        lambda c: (
            ("/projects/payments/checkpoint", {"summary": "Done.", "decisions": ["Cache for 5 minutes."]}),
            ("/projects/payments/checkpoint", {"summary": "Done.", "decisions": ["Cache for 9 minutes."]}),
        ),
    ),
    Post("import_project", _import),
    Post(
        "import_memory",
        lambda c: (
            (
                "/projects/payments/memory-imports",
                {"files": {"AGENTS.md": "- Never log card numbers anywhere."}},
            ),
            (
                "/projects/payments/memory-imports",
                {"files": {"AGENTS.md": "- Prefer small pull requests, always."}},
            ),
        ),
    ),
    Post("retry_transfer_job", _retry),
    Post("report_code_change", _code_change),
    Post("confirm_note", _confirm),
    Post(
        "create_api_key",
        lambda c: (("/api-keys", {"name": "CI"}), ("/api-keys", {"name": "CI", "read_only": True})),
        manager=True,
    ),
]


def state() -> dict[str, Any]:
    """Every row a POST could write: notes, revisions, links, projects, keys, audit events, records."""
    return {
        **db_state(),
        "api_keys": list(ApiKey.objects.order_by("pk").values_list("pk", "name", "revoked_at")),
        "audit": AuditEvent.objects.count(),
        "records": IdempotencyRecord.objects.count(),
    }


def caller(api: Api, cast: Any, post: Post) -> Api:
    return api.as_(cast.key(cast.owner)) if post.manager else api


def test_every_post_of_the_schema_is_covered():
    posts = {op for op, (method, _, _) in operations().items() if method == "post"}
    assert posts == {post.operation for post in POSTS}


def test_every_post_documents_the_header():
    for op, (method, _, operation) in operations().items():
        headers = {p["name"] for p in operation.get("parameters", []) if p["in"] == "header"}
        assert ("Idempotency-Key" in headers) == (method == "post"), op


@pytest.mark.parametrize("post", POSTS, ids=lambda p: p.operation)
def test_a_retry_replays_the_first_answer_and_writes_once(api, cast, post):
    me = caller(api, cast, post)
    (path, body), _ = post.prepare(cast)
    headers = {"Idempotency-Key": f"retry-{post.operation}"}
    before = state()
    first = me.post(path, body, headers=headers)
    assert first.status in (200, 201), first
    after_first = state()
    assert after_first != before and after_first["records"] == before["records"] + 1
    again = me.post(path, body, headers=headers)
    assert (again.status, again.json) == (first.status, first.json)
    assert again.headers.get("ETag") == first.headers.get("ETag")
    assert state() == after_first


@pytest.mark.parametrize("post", POSTS, ids=lambda p: p.operation)
def test_the_same_key_with_another_request_is_invalid_argument(api, cast, post):
    me = caller(api, cast, post)
    (path, body), (other_path, other_body) = post.prepare(cast)
    headers = {"Idempotency-Key": f"reused-{post.operation}"}
    first = me.post(path, body, headers=headers)
    assert first.status in (200, 201), first
    before = state()
    refused = me.post(other_path, other_body, headers=headers)
    assert refused.status == 400, refused
    assert refused.error["code"] == "invalid_argument" and "different request" in refused.error["message"]
    assert state() == before
    # The first request, sent again, still replays its answer.
    assert me.post(path, body, headers=headers).json == first.json


@pytest.mark.parametrize("post", POSTS, ids=lambda p: p.operation)
def test_without_the_header_a_second_post_is_a_new_request(api, cast, post):
    # The control: without the key the store does not replay, so the replays above are the key's.
    me = caller(api, cast, post)
    (path, body), _ = post.prepare(cast)
    first = me.post(path, body)
    assert first.status in (200, 201), first
    assert IdempotencyRecord.objects.count() == 0
    second = me.post(path, body)
    assert (second.status, second.json) != (first.status, first.json)


def test_another_team_s_same_key_does_not_collide(api, cast):
    headers = {"Idempotency-Key": "shared-key"}
    mine = api.post(
        "/projects/payments/notes", {"title": "Cache", "body": "Cache for 5 minutes."}, headers=headers
    )
    theirs = api.as_(cast.key(cast.outsider)).post(
        "/projects/lab/notes", {"title": "Cache", "body": "Cache for 5 minutes."}, headers=headers
    )
    assert (mine.status, theirs.status) == (201, 201)
    assert theirs.json["note"]["project"] == "lab" and theirs.json["note"]["id"] != mine.json["note"]["id"]
    # Team-wide keys too: the same project name under the same key in two teams makes two projects.
    ours = api.post("/projects", {"name": "Billing"}, headers=headers)
    globex = api.as_(cast.key(cast.outsider)).post("/projects", {"name": "Billing"}, headers=headers)
    assert (ours.status, globex.status) == (201, 201)
    assert set(Project.objects.filter(slug="billing").values_list("team__slug", flat=True)) == {
        "acme",
        "globex",
    }


def test_a_key_belongs_to_one_credential(api, cast):
    # Mia's second key (or her browser session) reusing the key of her first one writes for itself.
    headers = {"Idempotency-Key": "laptop-1"}
    body = {"title": "Cache", "body": "Cache for 5 minutes."}
    first = api.post("/projects/payments/notes", body, headers=headers)
    second = api.as_(cast.key(cast.member)).post("/projects/payments/notes", body, headers=headers)
    assert (first.status, second.status) == (201, 201)
    assert first.json["note"]["id"] != second.json["note"]["id"] and Note.objects.count() == 2


def test_a_replay_never_crosses_projects(api, cast):
    headers = {"Idempotency-Key": "per-project"}
    body = {"title": "Cache", "body": "Cache for 5 minutes."}
    payments = api.post("/projects/payments/notes", body, headers=headers)
    website = api.post("/projects/website/notes", body, headers=headers)
    assert website.status == 201 and website.json["note"]["project"] == "website"
    assert website.json["note"]["id"] != payments.json["note"]["id"]


@pytest.mark.parametrize("key", ["", " ", "k" * 201])
def test_a_malformed_key_is_400_and_writes_nothing(api, cast, key):
    before = state()
    answer = api.post(
        "/projects/payments/notes", {"title": "t", "body": "b"}, headers={"Idempotency-Key": key}
    )
    assert answer.status == 400 and "idempotency_key" in answer.error["message"]
    assert state() == before


def test_a_refused_first_request_keeps_no_record(api, cast):
    # A write that fails rolls back with its record: the key stays free for the corrected request.
    headers = {"Idempotency-Key": "fix-and-retry"}
    refused = api.post("/notes/n_AAAAAAAAAAAAAAAA/patch", {"op": "append", "text": "x"}, headers=headers)
    assert refused.status == 404 and IdempotencyRecord.objects.count() == 0
    note_id = save(cast, "Runbook", "Step one.")
    assert api.post(f"/notes/{note_id}/patch", {"op": "append", "text": "x"}, headers=headers).status == 200


def test_a_retried_patch_with_if_match_replays_instead_of_conflicting(api, cast):
    note_id = save(cast, "Runbook", "Step one.")
    headers = {"Idempotency-Key": "patch-once", "If-Match": '"1"'}
    first = api.post(f"/notes/{note_id}/patch", {"op": "append", "text": "Step two."}, headers=headers)
    again = api.post(f"/notes/{note_id}/patch", {"op": "append", "text": "Step two."}, headers=headers)
    assert (first.status, again.status) == (200, 200) and again.json == first.json
    assert Note.objects.get(public_id=note_id).body == "Step one.\n\nStep two."


def test_a_dry_run_keeps_no_key_and_leaves_it_for_the_import(owner_api, cast):
    body = {"document": _document(cast), "slug": "imported"}
    headers = {"Idempotency-Key": "import-1"}
    rehearsal = owner_api.post("/import", {**body, "dry_run": True}, headers=headers)
    assert rehearsal.status == 200 and rehearsal.json["dry_run"] is True
    assert IdempotencyRecord.objects.count() == 0
    imported = owner_api.post("/import", body, headers=headers)
    assert imported.status == 201 and Project.objects.filter(slug="imported").exists()


# --------------------------------------------------------------------------------- API keys' secret


def test_a_retried_key_creation_returns_the_same_secret_which_works(owner_api, cast):
    headers = {"Idempotency-Key": "new-ci-key"}
    first = owner_api.post("/api-keys", {"name": "CI"}, headers=headers)
    again = owner_api.post("/api-keys", {"name": "CI"}, headers=headers)
    assert (first.status, again.status) == (201, 201) and again.json["key"] == first.json["key"]
    assert ApiKey.objects.filter(name="CI").count() == 1
    assert owner_api.as_(again.json["key"]).get("/usage").status == 200


def test_the_secret_is_stored_sealed_not_in_the_clear(owner_api, cast):
    created = owner_api.post("/api-keys", {"name": "CI"}, headers={"Idempotency-Key": "sealed"})
    record = IdempotencyRecord.objects.get(operation="create_api_key")
    stored = json.dumps(record.response)
    secret = created.json["key"]
    assert secret not in stored and secret[len("kb_") + 16 :] not in stored
    assert record.response["api_key"] == created.json["api_key"]


def test_another_credential_with_the_same_key_never_gets_the_secret(owner_api, cast):
    headers = {"Idempotency-Key": "shared"}
    mine = owner_api.post("/api-keys", {"name": "CI"}, headers=headers)
    # Olivia's other key, and Oscar (another team's owner), both sending the same key and body.
    for other in (owner_api.as_(cast.key(cast.owner)), owner_api.as_(cast.key(cast.outsider))):
        theirs = other.post("/api-keys", {"name": "CI"}, headers=headers)
        assert theirs.status == 201 and theirs.json["key"] != mine.json["key"]
        assert theirs.json["api_key"]["id"] != mine.json["api_key"]["id"]


def test_after_the_replay_window_the_secret_is_not_replayed(owner_api, cast, monkeypatch):
    headers = {"Idempotency-Key": "late-retry"}
    first = owner_api.post("/api-keys", {"name": "CI"}, headers=headers)
    # A negative window: whatever time it is, the sealed secret is too old to open.
    monkeypatch.setattr("memory.idempotency.SEALED_REPLAY_WINDOW", timedelta(seconds=-1))
    before = state()
    late = owner_api.post("/api-keys", {"name": "CI"}, headers=headers)
    assert late.status == 400 and late.error["code"] == "invalid_argument"
    assert "revoke" in late.error["message"] and first.json["key"] not in late.text
    assert state() == before
