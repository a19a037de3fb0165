"""The REST API fuzzed from its live schema (/api/schema/) with schemathesis, in-process over WSGI on
the test database: every operation with a bounded number of generated requests, valid and invalid,
then stateful runs that follow the schema's links (create → read, update, revisions, delete → restore).

Checked on every response: never a server error, a status the operation documents, the documented
media type and headers, a body that conforms to the documented schema, invalid input refused, no
access without a credential, a deleted resource gone, a created one readable.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from accounts.models import ApiKey
from memory.models import Note
from tests.mcp_gateway.state import save

# Hundreds of generated requests: a couple of minutes on two cores, not the unit tier.
pytestmark = pytest.mark.slow
EXAMPLES_PER_OPERATION = 12
NOTE_ID = "n_FuzzTarget0000001"
OTHER_NOTE_ID = "n_FuzzOther00000002"

# One key value for every test of the run (each test stores it for its own cast): cases are built
# when the tests are collected, before any database exists.
FUZZ_KEY = "kb_f0220f0220f0220ffuzz-run-key-with-enough-secret-characters"


def configuration(parameters: dict[str, str]) -> schemathesis.Config:
    return schemathesis.Config.from_dict(
        {
            "seed": 11,
            "suppress-health-check": ["too_slow", "filter_too_much", "data_too_large"],
            "generation": {
                "mode": "all",
                "max-examples": EXAMPLES_PER_OPERATION,
                "database": "none",
                # NUL in any argument (path, query or body) must come back as a clean 400: the store's
                # registry refuses it before PostgreSQL sees it.
                "allow-x00": True,
                # The run sends a real key itself; made-up credentials are checked by `ignored_auth`.
                "with-security-parameters": False,
            },
            "parameters": parameters,
            "phases": {
                "coverage": {"enabled": False},
                # Sequences are about the links: valid requests, so each step can build on the last.
                "stateful": {"enabled": True, "max-steps": 6, "generation": {"mode": "positive"}},
            },
            "checks": {
                # Schema-valid requests may still be refused by the store's rules (a tag's form, a slug
                # taken, a screened value, a plan cap): those are 400/402/422, not failures.
                "positive_data_acceptance": {"enabled": False},
            },
        }
    )


class Bearer:
    """The run's API key, as schemathesis's own auth: its `ignored_auth` check then knows the
    credential is real and probes each operation without it and with a made-up one."""

    def get(self, case: Any, context: Any) -> str:
        return FUZZ_KEY

    def set(self, case: Any, data: str, context: Any) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


def live_schema(parameters: dict[str, str]) -> Any:
    loaded = schemathesis.openapi.from_wsgi(
        "/api/schema/", get_wsgi_application(), config=configuration(parameters)
    )
    loaded.auth()(Bearer)
    return loaded


# Operations one by one: ids and slugs that exist (made by the `bearer` fixture), so requests get past
# not_found into each operation's own work; unknown ids and slugs are the isolation tests' subject.
schema = live_schema({"path.project": "payments", "path.id": NOTE_ID, "path.to_id": OTHER_NOTE_ID})
# Stateful runs: note ids come from the responses, along the schema's links. The run's own key must
# stay valid for the whole run (state persists between its steps), so revoking keys is left to the
# per-operation run and tests/api/test_team.py.
linked_schema = live_schema({"path.project": "payments"}).exclude(operation_id="revoke_api_key")


@pytest.fixture
def bearer(cast) -> Iterator[None]:
    cast.plan.requests_per_minute = 0  # the run makes hundreds of requests a minute with one key
    cast.plan.save()
    # As Django's test client does: the start and end of a request must not close the connection
    # that holds the test's transaction (the WSGI app is called directly here).
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    for public_id, title in ((NOTE_ID, "Fuzzed"), (OTHER_NOTE_ID, "Linked")):
        made = save(cast, title, f"{title} note: original text.", tags=["fuzz"])
        Note.objects.filter(public_id=made).update(public_id=public_id)
    key = ApiKey.authenticate(cast.key(cast.owner))
    assert key is not None
    # Stored as every key is stored: a lookup prefix and the SHA-256 digest of the whole key.
    ApiKey.objects.filter(pk=key.pk).update(
        lookup=FUZZ_KEY[3 : 3 + len(key.lookup)], digest=hashlib.sha256(FUZZ_KEY.encode()).hexdigest()
    )
    try:
        yield
    finally:
        for signal in (request_started, request_finished):
            signal.connect(close_old_connections)


@schema.parametrize()
@hypothesis_settings(suppress_health_check=[HealthCheck.function_scoped_fixture])  # one cast for the run
def test_every_operation_answers_within_its_schema(case, bearer):
    case.call_and_validate()


class LinkedRuns(linked_schema.as_state_machine()):  # type: ignore[misc]
    """Each run starts from the same database: a run's writes are rolled back after it, so Hypothesis
    can replay (and shrink) a run and get the same answers."""

    def setup(self) -> None:
        self.savepoint = transaction.savepoint()

    def teardown(self) -> None:
        transaction.savepoint_rollback(self.savepoint)


def test_stateful_runs_follow_the_links(bearer):
    LinkedRuns.run(
        settings=hypothesis_settings(
            max_examples=15,
            stateful_step_count=6,
            deadline=None,
            database=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )
    )
