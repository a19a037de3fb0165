"""A REST caller over Django's test client: JSON in and out, a Bearer key per call."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

BASE = "/api/v1"


class Answer:
    def __init__(self, response: Any) -> None:
        self.response = response
        self.status = response.status_code
        self.headers = response.headers
        content_type = response.headers.get("Content-Type", "")
        self.json: Any = json.loads(response.content) if content_type.startswith("application/json") else None
        self.text = response.content.decode()

    @property
    def error(self) -> dict[str, Any]:
        assert self.json is not None and "error" in self.json, self.text[:500]
        error: dict[str, Any] = self.json["error"]
        return error

    def __repr__(self) -> str:
        return f"<{self.status} {self.text[:300]}>"


class Api:
    """Calls /api/v1 as the holder of `key` (None: no credential)."""

    def __init__(self, client: Client, key: str | None) -> None:
        self.client = client
        self.key = key

    def as_(self, key: str | None) -> Api:
        return Api(self.client, key)

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        query: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        raw: bytes | str | None = None,
        content_type: str = "application/json",
    ) -> Answer:
        extra = {"HTTP_AUTHORIZATION": f"Bearer {self.key}"} if self.key else {}
        for name, value in (headers or {}).items():
            extra["HTTP_" + name.upper().replace("-", "_")] = value
        url = path if path.startswith("/api/") else BASE + path
        if query:
            from urllib.parse import urlencode

            url += "?" + urlencode(query, doseq=True)
        data = raw if raw is not None else (json.dumps(body) if body is not None else None)
        handler = getattr(self.client, method.lower())
        if method.upper() in ("GET", "HEAD"):
            return Answer(handler(url, **extra))
        if data is None:
            return Answer(handler(url, **extra))
        return Answer(handler(url, data=data, content_type=content_type, **extra))

    def get(self, path: str, **query: Any) -> Answer:
        return self.call("GET", path, query=query or None)

    def post(self, path: str, body: Any = None, **options: Any) -> Answer:
        return self.call("POST", path, body if body is not None else {}, **options)

    def patch(self, path: str, body: Any = None, **options: Any) -> Answer:
        return self.call("PATCH", path, body if body is not None else {}, **options)

    def delete(self, path: str, **options: Any) -> Answer:
        return self.call("DELETE", path, **options)


@pytest.fixture
def api(cast, client) -> Api:
    """Mia's team-wide read-write key; `api.as_(other_key)` for anyone else."""
    return Api(client, cast.key(cast.member))


@pytest.fixture
def owner_api(cast, client) -> Api:
    return Api(client, cast.key(cast.owner))
