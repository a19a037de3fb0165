"""End to end over REST (issue 20 point 4): a caller pasting its own Knownbase key, or a shape the
gate stored before, into remember gets 422 `screened` naming the family; nothing is stored and the
refusal is audited without the text."""

from __future__ import annotations

import json

import pytest

from accounts.models import AuditEvent
from tests.mcp_gateway.state import db_state
from tests.memory.screening.samples import TRUE_POSITIVES


def test_the_callers_own_key_in_remember_is_refused_and_nothing_is_stored(api):
    before = db_state()
    answer = api.post(
        "/projects/payments/remember", {"content": f"The agent's key is {api.key}, keep it handy"}
    )
    assert answer.status == 422, answer
    assert answer.error["code"] == "screened" and answer.error["family"] == "knownbase_api_key"
    assert answer.error["field"] == "content"
    assert str(api.key) not in answer.text
    assert db_state() == before
    event = AuditEvent.objects.get(action="write.screened")
    assert event.detail == {"tool": "remember", "field": "content", "family": "knownbase_api_key"}
    assert str(api.key) not in json.dumps(event.detail)


@pytest.mark.parametrize(
    "family",
    ["huggingface_token", "telegram_bot_token", "curl_password", "netrc_password", "basic_auth_header"],
)
def test_a_shape_stored_before_is_refused_over_rest(api, family):
    before = db_state()
    value = TRUE_POSITIVES[family][0]
    answer = api.post("/projects/payments/remember", {"content": f"From the runbook:\n{value}\n"})
    assert answer.status == 422, answer
    assert answer.error["family"] == family
    assert db_state() == before
