"""The page that brings memory in: upload or paste, a preview that writes nothing, then the import."""

from __future__ import annotations

import json

from django.core.files.uploadedfile import SimpleUploadedFile

from memory.models import Note

URL = "/projects/payments/bring-in/"
SECRET = "xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"


def test_paste_preview_then_import(as_user, cast):
    client = as_user(cast.member, cast.acme)
    page = client.get(URL).content.decode()
    assert "Bring in memory" in page and 'enctype="multipart/form-data"' in page
    before = Note.objects.count()
    preview = client.post(
        URL,
        {
            "pasted": "# Rules\r\n- Never log card numbers anywhere.\r\n",
            "pasted_name": "CLAUDE.md",
            "format": "auto",
        },
    )
    html = preview.content.decode()
    assert preview.status_code == 200 and "Nothing is written yet." in html
    assert "Never log card numbers anywhere." in html and "CLAUDE.md:2" in html
    assert Note.objects.count() == before
    files = json.loads(preview.context["confirm"]["files_json"].value())
    done = client.post(URL, {"files_json": json.dumps(files), "format": "rules"})
    assert done.status_code == 200 and "Imported into Payments API: 1 new" in done.content.decode()
    assert Note.objects.count() == before + 1


def test_uploaded_files_with_a_secret_can_leave_it_out(as_user, cast):
    client = as_user(cast.member, cast.acme)
    upload = SimpleUploadedFile(
        "AGENTS.md", f"- Never log card numbers anywhere.\n- Token {SECRET} here.\n".encode()
    )
    preview = client.post(URL, {"uploads": [upload], "format": "auto", "pasted_name": "AGENTS.md"})
    html = preview.content.decode()
    assert "1 refused by screening" in html and SECRET not in html.replace(
        preview.context["confirm"]["files_json"].value().replace('"', "&quot;"), ""
    )
    files_json = preview.context["confirm"]["files_json"].value()
    refused = client.post(URL, {"files_json": files_json, "format": "rules"})
    assert refused.status_code == 400 and "AGENTS.md:2" in refused.content.decode()
    done = client.post(URL, {"files_json": files_json, "format": "rules", "skip_refused": "on"})
    assert done.status_code == 200 and "1 secret left out" in done.content.decode()
    assert not Note.objects.filter(body__contains=SECRET).exists()


def test_nothing_sent_and_bad_text_are_form_errors(as_user, cast):
    client = as_user(cast.member, cast.acme)
    empty = client.post(URL, {"format": "auto"})
    assert (
        empty.status_code == 400 and "Choose at least one file, or paste some text." in empty.content.decode()
    )
    binary = SimpleUploadedFile("notes.md", b"\xff\xfe\x00bad")
    assert client.post(URL, {"uploads": [binary], "format": "auto"}).status_code == 400
    lost = client.post(URL, {"files_json": "{not json", "format": "rules"})
    assert lost.status_code == 400 and "The preview was lost" in lost.content.decode()


def test_viewers_see_why_they_cannot(as_user, cast):
    client = as_user(cast.viewer, cast.acme)
    assert "read-only" in client.get(URL).content.decode()
    refused = client.post(URL, {"pasted": "- Never log card numbers anywhere.", "format": "auto"})
    assert refused.status_code == 403
    assert "Bring in memory" not in client.get("/projects/payments/").content.decode()
