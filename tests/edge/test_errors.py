"""The one table from store errors to HTTP status and body, and REST and the web answering a plan
limit alike."""

from __future__ import annotations

import html

import pytest
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.test import Client

from accounts import errors
from accounts.models import ApiKey
from edge.errors import STATUS, error_body, error_headers, http_status, raise_for_access
from memory import store
from tests.web.conftest import sign_in


def _subclasses(cls: type[errors.StoreError]) -> set[type[errors.StoreError]]:
    found = set(cls.__subclasses__())
    return found | {sub for child in found for sub in _subclasses(child)}


# The whole store is loaded (`store`), so a subclass declared anywhere below it is found here.
assert store.StoreError is errors.StoreError
ALL_ERRORS: list[type[errors.StoreError]] = sorted(
    {errors.StoreError, *_subclasses(errors.StoreError)}, key=lambda cls: cls.__name__
)


@pytest.mark.parametrize("error", ALL_ERRORS, ids=lambda cls: cls.__name__)
def test_every_store_error_is_in_the_table(error):
    # Its own row, or a kind's row (StripeUnavailable is an Unavailable): never the fallback 500 of
    # StoreError by accident.
    mapped = next(cls for cls in error.__mro__ if cls in STATUS)
    assert mapped is not errors.StoreError or error is errors.StoreError
    assert http_status(error("refused")) == STATUS[mapped]


def test_each_code_has_one_status():
    by_code: dict[str, set[int]] = {}
    for error in ALL_ERRORS:
        by_code.setdefault(error.code, set()).add(http_status(error("refused")))
    assert {code: len(statuses) for code, statuses in by_code.items()} == dict.fromkeys(by_code, 1)


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (errors.InvalidArgument, 400),
        (errors.PlanLimit, 402),
        (errors.Forbidden, 403),
        (errors.NotFound, 404),
        (errors.VersionConflict, 409),
        (errors.Screened, 422),
        (errors.RateLimited, 429),
        (errors.StoreError, 500),
    ],
)
def test_the_statuses(error, status):
    assert http_status(error("refused")) == status


def test_a_subclass_not_listed_answers_as_its_parent():
    class Stale(errors.VersionConflict):
        pass

    assert http_status(Stale("old")) == 409


def test_the_body_keeps_code_message_and_details_but_hides_internal_causes():
    limit = errors.PlanLimit("The Developer plan allows 1 API keys.", cap="api_keys", upgrade_url="/billing/")
    assert error_body(limit) == {
        "error": {
            "code": "plan_limit",
            "message": "The Developer plan allows 1 API keys.",
            "cap": "api_keys",
            "upgrade_url": "/billing/",
        }
    }
    internal = error_body(errors.StoreError("connection to /srv/db refused"))
    assert internal["error"]["code"] == "internal" and "/srv/db" not in str(internal)


def test_a_rate_limit_says_when_to_retry():
    assert error_headers(errors.RateLimited("slow down", retry_after=12)) == {"Retry-After": "12"}
    assert error_headers(errors.PlanLimit("full")) == {}


def test_pages_answer_scope_refusals_themselves():
    with pytest.raises(Http404):
        raise_for_access(errors.NotFound("no such note"))
    with pytest.raises(PermissionDenied):
        raise_for_access(errors.Forbidden("viewers cannot write"))
    raise_for_access(errors.PlanLimit("full"))  # the page's to show in its form


def test_rest_and_the_web_answer_a_plan_limit_with_the_same_status_and_message(cast):
    raw = cast.key(cast.owner)
    cast.plan.max_api_keys = ApiKey.objects.filter(team=cast.acme, revoked_at__isnull=True).count()
    cast.plan.save()
    rest = Client().post(
        "/api/v1/api-keys",
        {"name": "CI"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {raw}",
    )
    web = sign_in(Client(), cast.owner, cast.acme).post(
        "/keys/new/", {"name": "CI", "project": "", "access": "read_write", "expires": ""}
    )
    assert rest.status_code == web.status_code == 402
    message = rest.json()["error"]["message"]
    assert rest.json()["error"]["code"] == "plan_limit" and message
    assert html.escape(message) in web.content.decode()
