"""POST /api/v1/projects/{p}/memory-imports: the preview (200) and the import (201) of other tools'
memory, with the store's report unchanged; bad uploads are 400, secrets 422, others' projects 404."""

from __future__ import annotations

from memory.models import Note
from tests.api.schema import operations

PATH = "/projects/payments/memory-imports"
AGENTS = {"AGENTS.md": "# Rules\n- Never log card numbers anywhere.\n- Prefer small pull requests.\n"}
SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def test_preview_then_import(api):
    before = Note.objects.count()
    preview = api.post(PATH, {"files": AGENTS, "dry_run": True})
    assert preview.status == 200, preview
    assert preview.json["dry_run"] is True and preview.json["counts"]["created"] == 2
    assert Note.objects.count() == before
    done = api.post(PATH, {"files": AGENTS})
    assert done.status == 201 and done.json["counts"] == preview.json["counts"]
    assert Note.objects.count() == before + 2
    again = api.post(PATH, {"files": AGENTS})
    assert again.status == 201 and again.json["counts"]["duplicate"] == 2


def test_a_retry_with_the_same_key_replays_the_answer(api):
    first = api.post(PATH, {"files": AGENTS}, headers={"Idempotency-Key": "import-1"})
    second = api.post(PATH, {"files": AGENTS}, headers={"Idempotency-Key": "import-1"})
    assert first.status == second.status == 201 and first.json == second.json
    assert first.json["counts"]["created"] == 2


def test_secrets_and_bad_uploads_get_clear_errors(api):
    files = {"CLAUDE.md": f"- The token is {SECRET} today.\n- Never log card numbers anywhere.\n"}
    refused = api.post(PATH, {"files": files})
    assert refused.status == 422 and refused.error["code"] == "screened" and SECRET not in refused.text
    skipped = api.post(PATH, {"files": files, "skip_refused": True})
    assert skipped.status == 201 and skipped.json["counts"]["refused"] == 1 and SECRET not in skipped.text
    bodies: list[dict[str, object]] = [
        {"files": "AGENTS.md"},
        {"files": {}},
        {"files": AGENTS, "format": "xml"},
        {},
    ]
    for body in bodies:
        answer = api.post(PATH, body)
        assert answer.status == 400, (body, answer)


def test_read_only_keys_and_other_teams(api, cast):
    assert api.as_(cast.key(cast.viewer)).post(PATH, {"files": AGENTS, "dry_run": True}).status == 403
    assert api.as_(cast.key(cast.outsider)).post(PATH, {"files": AGENTS, "dry_run": True}).status == 404


def test_the_schema_declares_the_operation():
    _, path, operation = operations()["import_memory"]
    assert path == "/api/v1/projects/{project}/memory-imports"
    assert set(operation["responses"]) >= {"200", "201", "400", "422"}
