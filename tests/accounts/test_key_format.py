"""Knownbase's API key shape is declared once (accounts/key_format.py): what ApiKey.issue mints and
what the screening gate refuses are the same shape."""

from __future__ import annotations

import re

from accounts import key_format
from accounts.models import ApiKey
from memory.screening.gate import screen


def test_minted_keys_have_the_declared_shape():
    for _ in range(100):
        lookup, raw = key_format.mint()
        assert re.fullmatch(key_format.SHAPE, raw)
        assert raw.startswith(key_format.PREFIX + lookup) and len(lookup) == key_format.LOOKUP_LENGTH
        assert len(raw) == len(key_format.PREFIX) + key_format.LOOKUP_LENGTH + key_format.SECRET_LENGTH
        assert set(raw[len(key_format.PREFIX) :]) <= set(key_format.BODY_CHARS)


def test_an_issued_key_authenticates_and_is_refused_by_the_gate(cast):
    key, raw = ApiKey.issue(team=cast.acme, user=cast.member)
    assert re.fullmatch(key_format.SHAPE, raw)
    assert ApiKey.authenticate(raw) == key
    finding = screen({"content": f"use {raw} for the agent"})
    assert finding is not None and finding.family == "knownbase_api_key"
    assert screen({"content": f"revoke {key.display_prefix}"}) is None
