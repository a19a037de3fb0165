"""Projects: list, create, read, update (name, slug, summary, agent instructions), rename a tag."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.response import Response

from api import requests, responses
from api.views.base import (
    LOCATION,
    PROJECT,
    WRITE,
    StoreView,
    body_of,
    idempotency_key,
    operation,
    principal,
)
from memory import store

TAG = "projects"


class Projects(StoreView):
    @operation(
        "list_projects",
        "List projects",
        tag=TAG,
        ok={200: responses.ProjectList},
        description="The projects this credential can see, with the number of notes each.",
    )
    def get(self, request: Request) -> Response:
        return Response(store.list_projects(principal(request)))

    @operation(
        "create_project",
        "Create a project",
        tag=TAG,
        ok={201: responses.ProjectResult},
        errors=WRITE,
        request=requests.ProjectCreate,
        parameters=[LOCATION],
        description="Team-wide credentials only; the slug is derived from the name when absent.",
    )
    def post(self, request: Request) -> Response:
        result = store.create_project(
            principal(request),
            idempotency_key=idempotency_key(request),
            **body_of(request, requests.ProjectCreate),
        )
        return Response(
            result, status=201, headers={"Location": f"/api/v1/projects/{result['project']['slug']}"}
        )


class ProjectDetail(StoreView):
    @operation(
        "read_project",
        "Read a project",
        tag=TAG,
        ok={200: responses.ProjectDetailResult},
        parameters=[PROJECT],
        description="A project with its summary, agent instructions and visible note count.",
    )
    def get(self, request: Request, project: str) -> Response:
        return Response(store.get_project(principal(request), project))

    @operation(
        "update_project",
        "Update a project",
        tag=TAG,
        ok={200: responses.ProjectDetailResult},
        errors=WRITE,
        request=requests.ProjectUpdate,
        parameters=[PROJECT],
        description="Change any of name, slug, summary and agent instructions; the rest stays.",
    )
    def patch(self, request: Request, project: str) -> Response:
        return Response(
            store.update_project(principal(request), project, **body_of(request, requests.ProjectUpdate))
        )


class TagRename(StoreView):
    @operation(
        "rename_tag",
        "Rename a tag",
        tag=TAG,
        ok={200: responses.TagRenamed},
        errors=WRITE,
        request=requests.TagRename,
        parameters=[PROJECT],
        description="Rename a tag on every note of the project; merges into `new` if it exists.",
    )
    def post(self, request: Request, project: str) -> Response:
        arguments: dict[str, Any] = body_of(request, requests.TagRename)
        return Response(
            store.rename_tag(
                principal(request),
                project,
                arguments["old"],
                arguments["new"],
                idempotency_key=idempotency_key(request),
            )
        )
