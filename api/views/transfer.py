"""Export (a JSON or Markdown download), import (with a dry run), and the background jobs the web
pages start: read one, retry a failed one."""

from __future__ import annotations

import json
import re
from typing import Any

from django.conf import settings
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from rest_framework.request import Request
from rest_framework.response import Response

from api import requests, responses
from api.views.base import (
    PROJECT,
    WRITE,
    StoreView,
    body_of,
    idempotency_key,
    operation,
    path_parameter,
    principal,
    query_of,
)
from memory import inputs, store

TAG = "transfer"
_UNSAFE_FILENAME = re.compile(r"[^A-Za-z0-9._-]")
JOB = path_parameter("job", "The transfer job's id.", "tj_4Gx8kQ2mP7", inputs.PUBLIC_ID)


class Export(StoreView):
    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        # The download is JSON or Markdown as `format` says, whatever Accept asks for; errors are JSON.
        return super().perform_content_negotiation(request, force=True)

    @operation(
        "export_project",
        "Export a project",
        tag=TAG,
        ok={(200, "application/json"): responses.ExportDocument, (200, "text/markdown"): OpenApiTypes.STR},
        query=requests.ExportQuery,
        parameters=[PROJECT],
        description="Download the whole project: format=json is complete and re-importable (POST "
        "/api/v1/import), format=markdown is readable. Deleted notes are in the JSON, not the Markdown.",
    )
    def get(self, request: Request, project: str) -> HttpResponse:
        result = store.export_content(principal(request), project, **query_of(request, requests.ExportQuery))
        if result["format"] == "markdown":
            response = HttpResponse(result["content"], content_type="text/markdown; charset=utf-8")
        else:
            response = HttpResponse(
                json.dumps(result["content"], ensure_ascii=False, indent=2), content_type="application/json"
            )
        filename = _UNSAFE_FILENAME.sub("-", result["filename"])
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        response["Cache-Control"] = "no-store"
        return response


class Import(StoreView):
    def max_body_bytes(self) -> int:
        # An export document is as large as the web import page accepts, not a form post's limit.
        return int(settings.IMPORT_MAX_BYTES)

    @operation(
        "import_project",
        "Import a project",
        tag=TAG,
        ok={201: responses.Imported, 200: responses.ImportDryRun},
        errors=WRITE,
        request=requests.Import,
        description="Create a new project from an export document (201). With dry_run, every check is made "
        "(document, slug, plan caps, screening) and the counts that would be written are reported (200); "
        "nothing is written, and an Idempotency-Key is not kept.",
    )
    def post(self, request: Request) -> Response:
        arguments: dict[str, Any] = body_of(request, requests.Import)
        result = store.import_project(
            principal(request),
            arguments.pop("document"),
            idempotency_key=idempotency_key(request),
            **arguments,
        )
        return Response(result, status=200 if result.get("dry_run") else 201)


class MemoryImport(StoreView):
    def max_body_bytes(self) -> int:
        # The files' text (inputs.MEMORY_IMPORT_BYTES), escaped as JSON strings (a newline is two
        # bytes), and the request's other fields; the store then measures the text itself.
        return 2 * inputs.MEMORY_IMPORT_BYTES + 64 * 1024

    @operation(
        "import_memory",
        "Bring in memory from other tools",
        tag=TAG,
        ok={201: responses.MemoryImport, 200: responses.MemoryImport},
        errors=WRITE,
        request=requests.MemoryImport,
        parameters=[PROJECT],
        description="Read rules files (CLAUDE.md, AGENTS.md, Cursor and Claude Code rules, Copilot "
        "instructions) or another memory tool's export (basic-memory, mcp-memory-service, the reference "
        "memory server's JSONL graph, Mem0) into notes of this project. Each note is judged as remember "
        "judges it: known ones are duplicates, restatements merge, contradictions are left out and named; "
        "each is screened and capped. With dry_run the same report, nothing written (200); else 201. A note "
        "that looks like a secret refuses the whole import unless skip_refused leaves such notes out.",
    )
    def post(self, request: Request, project: str) -> Response:
        arguments: dict[str, Any] = body_of(request, requests.MemoryImport)
        result = store.import_memory(
            principal(request),
            project,
            arguments.pop("files"),
            idempotency_key=idempotency_key(request),
            **arguments,
        )
        return Response(result, status=200 if result["dry_run"] else 201)


class TransferJob(StoreView):
    @operation(
        "read_transfer_job",
        "Read a transfer job",
        tag=TAG,
        ok={200: responses.TransferJobResult},
        parameters=[JOB],
        description="An export or import the web pages run in the background, if it is yours: status, "
        "progress, the reason it failed (e.g. its worker stopped), whether it can be retried, and for a "
        "finished export a fresh signed download link.",
    )
    def get(self, request: Request, job: str) -> Response:
        return Response(store.transfer_job(principal(request), job))


class TransferJobRetry(StoreView):
    @operation(
        "retry_transfer_job",
        "Retry a failed transfer job",
        tag=TAG,
        ok={200: responses.TransferJobResult},
        errors=WRITE,
        request=requests.Empty,
        parameters=[JOB],
        description="Queue a failed export or import of yours again, under the same id, acting as this "
        "credential. An import needs write access; a job still under way or finished is 400.",
    )
    def post(self, request: Request, job: str) -> Response:
        body_of(request, requests.Empty)
        return Response(
            store.retry_transfer_job(principal(request), job, idempotency_key=idempotency_key(request))
        )
