from __future__ import annotations

import json
from urllib.parse import urlsplit

from django.conf import settings

from tests.mcp_gateway.state import edit, save, text_matches_structured


def download(client, url: str):
    assert url.startswith(f"{settings.SITE_URL}/exports/")
    return client.get(urlsplit(url).path)


def test_json_export_counts_and_downloads_the_project(mcp, cast, client):
    first = save(cast, "Stripe", "We use Stripe.", type="decision")
    second = save(cast, "Retries", "Three retries.")
    edit(cast, second, body="Five retries.")
    save(cast, "Website", "Not exported.", project="website")
    result = mcp.call(cast.key(cast.member), "export_project", {"project": "payments"})
    assert not result.is_error, result.structured_content
    assert text_matches_structured(result)
    export = result.structured_content
    assert (export["project"], export["format"]) == ("payments", "json")
    assert export["counts"] == {"notes": 2, "revisions": 1, "links": 0}
    assert export["expires_at"].endswith("Z")

    response = download(client, export["url"])
    assert response.status_code == 200
    document = json.loads(response.content)
    assert document["project"]["slug"] == "payments"
    assert [(n["id"], n["title"], n["body"]) for n in document["notes"]] == [
        (first, "Stripe", "We use Stripe."),
        (second, "Retries", "Five retries."),
    ]
    assert [r["body"] for r in document["notes"][1]["revisions"]] == ["Three retries."]


def test_markdown_export(local_mcp, cast, client):
    save(cast, "Stripe", "We use Stripe for cards.", type="decision")
    export = local_mcp.ok(
        cast.key(cast.member), "export_project", {"project": "payments", "format": "markdown"}
    )
    assert export["format"] == "markdown"
    response = download(client, export["url"])
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/markdown")
    text = response.content.decode()
    assert "### Stripe" in text
    assert "We use Stripe for cards." in text


def test_read_only_callers_may_export(local_mcp, cast, client):
    save(cast, "Stripe", "We use Stripe.")
    for key in (cast.key(cast.member, read_only=True), cast.key(cast.viewer)):
        export = local_mcp.ok(key, "export_project", {"project": "payments"})
        assert export["counts"]["notes"] == 1
        assert download(client, export["url"]).status_code == 200


def test_out_of_scope_is_not_found(local_mcp, cast):
    save(cast, "Stripe", "We use Stripe.")
    for key in (cast.key(cast.outsider), cast.key(cast.member, project=cast.website)):
        error = local_mcp.error(key, "export_project", {"project": "payments"})
        assert error["code"] == "not_found"
        assert "url" not in error


def test_bad_input_is_invalid_argument(local_mcp, cast):
    key = cast.key(cast.member)
    for arguments in [
        {},
        {"project": ""},
        {"project": 1},
        {"project": "payments", "format": "pdf"},
        {"project": "payments", "format": ""},
        {"project": "payments", "include_deleted": True},
    ]:
        result = local_mcp.call(key, "export_project", arguments)
        assert result.is_error, arguments
        assert result.structured_content["error"]["code"] == "invalid_argument", arguments
