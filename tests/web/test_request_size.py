"""Form posts past what the server takes are 413 with the limit, before anything reads them: the
import page's upload by its declared length, any form's fields past DATA_UPLOAD_MAX_MEMORY_SIZE."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile

from memory.models import TransferJob


def test_an_upload_past_the_import_page_limit_is_413_unread(as_user, cast, settings):
    settings.IMPORT_MAX_BYTES = 1024
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024
    client = as_user(cast.member, cast.acme)
    file = SimpleUploadedFile("big.json", b"[" + b"0," * 4000 + b"0]", content_type="application/json")
    response = client.post("/projects/payments/import/", {"file": file})
    assert response.status_code == 413
    assert "at most 1 KB" in response.content.decode()
    assert not TransferJob.objects.exists()


def test_form_fields_past_the_limit_are_413_not_400(client, cast, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2048
    response = client.post("/login/", {"username": "olivia@acme.test", "password": "x" * 5000})
    assert response.status_code == 413
    assert "at most 2 KB" in response.content.decode()


def test_ordinary_forms_pass(client, cast):
    response = client.post("/login/", {"username": "olivia@acme.test", "password": "correct horse battery"})
    assert response.status_code == 302
