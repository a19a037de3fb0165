"""Every family, raw and disguised, through every REST write endpoint; nothing planted is anywhere in
the database afterwards, and no refusal repeats the secret."""

from __future__ import annotations

import json
from urllib.parse import quote, urlencode

import pytest
from django.test import Client

from accounts.models import AuditEvent
from tests.api.schema import write_operations
from tests.mcp_gateway.state import save
from tests.safety import harness
from tests.safety.write_paths import REST_PATHS, Context, RestCall, RestPath


@pytest.fixture
def context(cast) -> Context:
    return Context(
        note_id=save(cast, "Original", "original text"),
        other_note_id=save(cast, "Other", "other text"),
    )


def test_every_rest_write_is_planted():
    assert write_operations() == {path.operation for path in REST_PATHS}


def send(client: Client, key: str, call: RestCall):
    method, path, body, query, headers = call
    url = "/api/v1" + "/".join(quote(part, safe="") for part in path.split("/"))
    if query:
        url += "?" + urlencode(query)
    extra = {"HTTP_AUTHORIZATION": f"Bearer {key}"}
    for name, value in (headers or {}).items():
        extra["HTTP_" + name.upper().replace("-", "_")] = value
    data = json.dumps(body) if body is not None else None
    if data is None:
        return getattr(client, method.lower())(url, **extra)
    return getattr(client, method.lower())(url, data=data, content_type="application/json", **extra)


def plant_rest(client: Client, key: str, path: RestPath, context: Context, planted) -> list[str]:
    problems = []
    allowed = {422, 400, 404} if path.bounded else {422}
    for plant in planted:
        for call in path.plant(plant.value, context):
            response = send(client, key, call)
            label = f"{path.operation} {call[1][:40]!r} {plant.family}/{plant.variant}"
            if response.status_code not in allowed:
                problems.append(f"{label}: {response.status_code}")
            elif plant.value in response.content.decode():
                problems.append(f"{label}: the refusal repeats the secret")
    return problems


@pytest.mark.parametrize("path", REST_PATHS, ids=lambda p: p.operation)
def test_rest_write_refuses_every_family(client, cast, context, path):
    planted = harness.plants()
    problems = plant_rest(client, cast.key(cast.owner), path, context, planted)
    assert problems == [], "\n".join(problems)
    assert harness.leaks(planted) == []
    if not path.bounded:
        screened = AuditEvent.objects.filter(action="write.screened")
        assert screened.exists() and all(
            event.detail.keys() == {"tool", "field", "family"} for event in screened
        )


def test_canary_the_rest_harness_catches_a_path_around_the_gate(client, cast, context, monkeypatch):
    monkeypatch.setattr("memory.screening.guard.screen", lambda *args, **kwargs: None)
    planted = harness.plants(variants=("raw",))
    create = next(path for path in REST_PATHS if path.operation == "create_note")
    problems = plant_rest(client, cast.key(cast.owner), create, context, planted)
    assert problems, "with the gate bypassed, the writes must be reported as accepted"
    assert {leak.split(" in ")[0] for leak in harness.leaks(planted)} >= {f"{p.family}/raw" for p in planted}
