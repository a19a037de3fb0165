"""REST bodies are bounded: past its endpoint's size limit a body is 413 too_large with the limit in
the message (the import takes what the web import page takes), and JSON nested deeper than
JSON_MAX_DEPTH is 400 before anything walks it. Neither is ever a 500."""

from __future__ import annotations

import json

from memory.models import Project
from tests.mcp_gateway.state import save

MB = 1024 * 1024


def _export_of(api, cast, size: int) -> dict:
    """A valid export document of about `size` bytes: payments' export with more notes like its own."""
    save(cast, "Ledger", "Refunds go through the ledger.")
    document = api.get("/projects/payments/export").json
    [note] = document["notes"]
    body = ("The ledger settles refunds every night and the payouts every morning. " * 700)[:48_000]
    count = size // len(body) + 1
    document["notes"] = [
        {**note, "id": f"n_{index:016d}", "title": f"Ledger {index}", "body": body} for index in range(count)
    ]
    return document


def test_a_3_mb_export_imports_like_on_the_web_page(api, owner_api, cast):
    document = _export_of(api, cast, int(3.2 * MB))
    assert len(json.dumps(document)) > 3 * MB
    dry = owner_api.post("/import", {"document": document, "slug": "copy", "dry_run": True})
    assert dry.status == 200, dry
    assert dry.json["would_import"]["notes"] == len(document["notes"])


def test_an_import_past_its_limit_is_413_with_the_limit(owner_api, cast, settings):
    settings.IMPORT_MAX_BYTES = 64 * 1024
    document = {"format": "knownbase-export", "notes": [{"body": "x" * 70_000}]}
    refused = owner_api.post("/import", {"document": document, "slug": "copy"})
    assert refused.status == 413, refused
    assert refused.error["code"] == "too_large" and "at most 64 KB" in refused.error["message"]
    assert refused.error["limit_bytes"] == 64 * 1024
    assert not Project.objects.filter(slug="copy").exists()


def test_any_other_body_past_the_form_limit_is_413(api, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2048
    refused = api.post("/projects", {"name": "Big", "summary": "s" * 4000})
    assert refused.status == 413 and refused.error["code"] == "too_large"
    assert "at most 2 KB" in refused.error["message"]
    # An understated Content-Length does not get a longer body through.
    short = api.client.post(
        "/api/v1/projects",
        data=json.dumps({"name": "Big", "summary": "s" * 4000}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {api.key}",
        CONTENT_LENGTH="10",
    )
    assert short.status_code in (400, 413)


def test_json_nested_1000_deep_is_400_on_every_endpoint(api, owner_api):
    deep = "[" * 1000 + "]" * 1000
    for path, caller in (("/import", owner_api), ("/projects", api), ("/projects/payments/remember", api)):
        refused = caller.call("POST", path, raw='{"document": ' + deep + "}")
        assert refused.status == 400, (path, refused)
        assert refused.error["code"] == "invalid_argument"
        assert "deeper than 64 levels" in refused.error["message"]


def test_depth_up_to_the_limit_is_parsed(api, settings):
    settings.JSON_MAX_DEPTH = 8
    within = {"name": "Flat", "summary": "[[[[[[[[[[ brackets in a string are text"}
    assert api.post("/projects", within).status == 201
    too_deep = api.call("POST", "/projects", raw='{"name": [[[[[[[["x"]]]]]]]]}')
    assert too_deep.status == 400 and "deeper than 8 levels" in too_deep.error["message"]
    just_in = api.call("POST", "/projects", raw='{"name": [[[[[[["x"]]]]]]]}')
    assert just_in.status == 400 and "deeper" not in just_in.error["message"]  # parsed; the name is wrong


def test_malformed_json_is_still_the_plain_parse_error(api):
    refused = api.call("POST", "/projects", raw='{"name": ')
    assert refused.status == 400 and "not valid JSON" in refused.error["message"]
