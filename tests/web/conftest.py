"""Helpers for the web page tests: sign a cast member in, in a chosen team."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from accounts.models import Team, User
from web.session import TEAM_SESSION_KEY


@pytest.fixture(autouse=True)
def _fresh_throttles() -> Iterator[None]:
    # Sign-in and reset counters live in the (process-local) cache: one test's failures must not
    # block the next test's attempts.
    cache.clear()
    yield
    cache.clear()


def sign_in(client: Client, user: User, team: Team | None = None) -> Client:
    client.force_login(user)
    if team is not None:
        session = client.session
        session[TEAM_SESSION_KEY] = team.pk
        session.save()
    return client


@pytest.fixture
def as_user(client: Client) -> Any:
    def use(user: User, team: Team | None = None) -> Client:
        return sign_in(client, user, team)

    return use


def link_in(body: str) -> str:
    """The path of the first link to this site in an email body."""
    match = re.search(r"https?://[^/\s]+(/\S+)", body)
    assert match, body
    return match.group(1)
